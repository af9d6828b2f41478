import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { failure } from '../common/errors/error-catalogue';
import { Page, PageResult, pageResult } from '../common/http/pagination';
import { normaliseAuMobile } from '../common/phone';
import { Clock } from '../common/time/clock';
import { parseDayRange } from '../common/time/date-range';
import { isAuMobile, normaliseOrThrow } from '../common/phone';
import { WebhookEventsService } from '../webhooks/webhook-events.service';
import { InboundFilter, InboundRepository, InboundType } from './inbound.repository';
import { InboundView, toInboundView, toTestInboundResult } from './inbound.mapper';
import { isOptOut } from './opt-out';
import { OptOutService } from './opt-out.service';
import { KeywordActionsService } from './keyword-actions.service';
import { KeywordRulesService } from '../keywords/keyword-rules.service';
import { UnitOfWork } from '../database/unit-of-work';

/** A number as senders store it: an Australian mobile as 61…, anything else (short codes) as its digits. */
function asStoredNumber(raw: string): string {
  return normaliseAuMobile(raw) ?? raw.replace(/\D/g, '');
}

export interface IncomingSms {
  from: string;
  to: string;
  text: string;
  receivedAt: Date;
}

/**
 * One path for every reply, from the carrier (deliver_sm) or POST /v1/test-inbound: find the owning
 * account, correlate with the last message sent from that number to that mobile, for a STOP-family
 * reply apply every opt-out effect, then act on the keyword it matches (the account's rules, then
 * START and HELP), all in one transaction with storing the message.
 */
@Injectable()
export class InboundService {
  private readonly logger = new Logger(InboundService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: InboundRepository,
    private readonly accounts: AccountsService,
    private readonly optOuts: OptOutService,
    private readonly keywords: KeywordRulesService,
    private readonly keywordActions: KeywordActionsService,
    private readonly webhooks: WebhookEventsService,
    private readonly clock: Clock,
  ) {}

  /** Stores a reply; null when no account owns the receiving number (logged and dropped). */
  async receive(sms: IncomingSms, forAccountId?: number): Promise<{ id: string; type: InboundType; accountId: number } | null> {
    const mobile = asStoredNumber(sms.from);
    const to = asStoredNumber(sms.to);
    const owners = forAccountId !== undefined ? [forAccountId] : await this.repo.ownersOfNumber(to);
    if (owners.length === 0) {
      this.logger.warn({ msg: 'inbound message for a number no account owns; dropped', to });
      return null;
    }
    // A shared number belongs to several accounts: the reply goes to the one that last wrote to this mobile.
    const last = await this.repo.lastOutbound(owners, to, mobile);
    const accountId = last?.account_id ?? owners[0];
    const stop = isOptOut(sms.text);
    const id = randomUUID();
    const original = { originalMessageId: last?.id ?? null, originalCustomRef: last?.custom_ref ?? null };
    const type = await this.uow.run(async (tx) => {
      // Keywords act only for mobiles: a short code or an alphanumeric sender cannot opt in, join or be answered.
      const actions = isAuMobile(mobile) ? await this.keywords.actionsFor(accountId, to, sms.text, tx) : null;
      const type: InboundType = stop || actions?.optOut ? 'unsubscribe' : 'inbound';
      const keywordRule = actions ? { keywordRule: { ruleId: actions.ruleId, keyword: actions.keyword } } : {};
      await this.repo.insert({ id, accountId, from: mobile, to, body: sms.text, type, ...original, ...keywordRule, receivedAt: sms.receivedAt }, tx);
      if (stop && isAuMobile(mobile)) {
        await this.optOuts.apply(accountId, mobile, 'reply', tx, { inboundMessageId: id });
      }
      if (actions) await this.keywordActions.apply({ accountId, inboundId: id, mobile, to, text: sms.text, stop }, actions, tx);
      await this.webhooks.inboundReceived(accountId, { to, sender: mobile, message: sms.text, receivedAt: sms.receivedAt, type, ...original, ...keywordRule }, tx);
      return type;
    });
    return { id, type, accountId };
  }

  /** POST /v1/test-inbound: a simulated reply on a test account, through the same path. */
  async simulate(accountId: number, input: { from: string; message: string; to?: string }): Promise<ReturnType<typeof toTestInboundResult>> {
    const account = await this.accounts.get(accountId);
    if (!account.isTest) throw failure('testAccountsOnly');
    const from = normaliseOrThrow(input.from);
    const to = input.to !== undefined ? asStoredNumber(input.to) : await this.repo.firstReceivingNumber(accountId);
    if (!to || (input.to !== undefined && !(await this.repo.ownersOfNumber(to)).includes(accountId))) throw failure('noReceivingNumber');
    const stored = await this.receive({ from, to, text: input.message, receivedAt: this.clock.now() }, accountId);
    return toTestInboundResult(stored!);
  }

  async page(accountId: number, query: { from?: string; to?: string; type?: string }, page: Page): Promise<PageResult<InboundView>> {
    const filter: InboundFilter = {};
    if (query.type !== undefined && query.type !== '') {
      if (query.type !== 'inbound' && query.type !== 'unsubscribe') throw failure('invalidInboundType');
      filter.type = query.type;
    }
    Object.assign(filter, parseDayRange(query.from, query.to));
    const { total, rows } = await this.repo.page(accountId, filter, page);
    return pageResult(page, total, rows.map(toInboundView));
  }
}
