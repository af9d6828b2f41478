import { hundredthsToNumber } from '../../billing/money';
import { UsageText } from '../../common/errors/error-catalogue';
import { formatUtc } from '../../common/time/format';
import { LIVE_REQUEST_STATES } from '../../live-requests/live-request.entity';
import type { LiveRequestRecord, LiveRequestWithAccount } from '../../live-requests/live-requests.repository';
import { LiveRequestsModule } from '../../live-requests/live-requests.module';
import { LiveRequestsService } from '../../live-requests/live-requests.service';
import { MAX_DECLINE_REASON_LENGTH } from '../../live-requests/live-request-input';
import { positiveId, UsageError } from '../cli-args';
import { defineCommand } from '../command';
import { creditsFlag, oneOfFlag } from '../flag-values';

function requestView(r: LiveRequestRecord | LiveRequestWithAccount) {
  return {
    request_id: r.id,
    account_id: r.accountId,
    ...('accountName' in r ? { account_name: r.accountName, owner_email: r.ownerEmail } : {}),
    business_name: r.businessName,
    abn: r.abn,
    website: r.website || null,
    intended_use: r.intendedUse,
    state: r.state,
    decline_reason: r.declineReason,
    starting_credits: r.startingCredits === null ? null : hundredthsToNumber(r.startingCredits),
    submitted_at: formatUtc(r.submittedAt),
    decided_at: r.decidedAt ? formatUtc(r.decidedAt) : null,
  };
}

/** Test accounts asking to go live (the dashboard's Go live page): the review queue and the decisions. Part of the `account` group. */
export const LIVE_REQUEST_COMMANDS = [
  defineCommand({
    name: 'account:review',
    summary: 'requests of test accounts to go live: the review queue (--list) or one request (--id)',
    description: '--list prints the pending requests, oldest first (--state for others: approved, declined); --id prints one request in any state.',
    options: {
      list: { type: 'boolean', help: 'list requests (pending unless --state says otherwise)' },
      state: { type: 'string', value: 'STATE', help: `with --list: ${LIVE_REQUEST_STATES.join(', ')} (default pending)` },
      id: { type: 'string', value: 'ID', help: 'one request' },
    },
    examples: ['--list', '--list --state declined', '--id 3'],
    modules: [LiveRequestsModule],
    run: async (app, v) => {
      if (v.list === (v.id !== undefined)) throw new UsageError(UsageText.exactlyOneOf('list', 'id'));
      const service = app.get(LiveRequestsService);
      if (v.id !== undefined) {
        return requestView(await service.get(positiveId(v.id, 'id')));
      }
      const state = oneOfFlag(v.state, 'state', LIVE_REQUEST_STATES) ?? 'pending';
      return { state, requests: (await service.list(state)).map(requestView) };
    },
  }),

  defineCommand({
    name: 'account:approve',
    summary: 'approves a pending request to go live: the account is live at once (same keys); emails the owner',
    description:
      'The sandbox Sender ID goes: senders still need registration. The free starting credit is LIVE_STARTING_CREDITS (default 0) unless --starting-credits says otherwise; it is a ledger grant, like credits:add.',
    options: {
      id: { type: 'string', value: 'ID', required: true, help: 'the request (account:review --list)' },
      'starting-credits': { type: 'string', value: 'CREDITS', help: 'free credits to start with (two decimals at most; 0 for none)' },
    },
    examples: ['--id 3', '--id 3 --starting-credits 50'],
    modules: [LiveRequestsModule],
    run: async (app, v) => {
      const id = positiveId(v.id, 'id');
      const starting = v['starting-credits'] === undefined ? undefined : creditsFlag(v['starting-credits'], 'starting-credits');
      const decision = await app.get(LiveRequestsService).approve(id, starting);
      return { ...requestView(decision.request), account_name: decision.accountName, test: false, emailed: decision.emailed };
    },
  }),

  defineCommand({
    name: 'account:decline',
    summary: 'declines a pending request to go live with the reason the owner is told; the account stays a test account',
    options: {
      id: { type: 'string', value: 'ID', required: true, help: 'the request (account:review --list)' },
      reason: { type: 'string', value: 'TEXT', required: true, maxLength: MAX_DECLINE_REASON_LENGTH, help: 'emailed to the owner and shown on their Go live page' },
    },
    examples: ['--id 3 --reason "The ABN is not registered to this business"'],
    modules: [LiveRequestsModule],
    run: async (app, v) => {
      const decision = await app.get(LiveRequestsService).decline(positiveId(v.id, 'id'), v.reason);
      return { ...requestView(decision.request), account_name: decision.accountName, test: true, emailed: decision.emailed };
    },
  }),
];
