import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { ApiKeysService } from '../../accounts/api-keys.service';
import { hundredthsToNumber } from '../../billing/money';
import { SendingBrakeModule } from '../../sending-brake/sending-brake.module';
import { SendingBrakeService } from '../../sending-brake/sending-brake.service';
import { operatorActor } from '../../users/actor';
import { SendersModule } from '../../senders/senders.module';
import { SendersService } from '../../senders/senders.service';
import { UsersModule } from '../../users/users.module';
import { MAX_NAME_LENGTH, UsersService } from '../../users/users.service';
import { positiveId } from '../cli-args';
import { defineCommand } from '../command';
import { countFlag, creditsFlag, emailFlag } from '../flag-values';
import { LIVE_REQUEST_COMMANDS } from './live-request.commands';
import { userView } from './views';

export const COMMANDS = [
  defineCommand({
    name: 'account:create',
    summary: 'an account, its senders, opening credits, a first API key and (optionally) its owner',
    description:
      'Senders of digits are `dedicated` numbers (refused, with nothing created, when another account holds the number), others `alpha` Sender IDs. The API password is printed only this once (only its SHA-256 is stored). With --owner-email the owner is emailed a single-use set-password link (24 h), also printed.',
    options: {
      name: { type: 'string', value: 'NAME', required: true, maxLength: MAX_NAME_LENGTH, help: 'the business name' },
      'owner-email': { type: 'string', value: 'EMAIL', help: 'make the owner, who signs in to the dashboard' },
      test: { type: 'boolean', help: 'a test account: messages go to the simulator and cost nothing' },
      credits: { type: 'string', value: 'CREDITS', help: 'opening credits (two decimals at most)' },
      sender: { type: 'string', value: 'SENDER', multiple: true, help: 'an active sender: a Sender ID or an Australian mobile' },
      'allow-duplicate-contacts': { type: 'boolean', help: 'let a list hold one number more than once' },
    },
    examples: ['--name "Harbour Bakery" --credits 100 --sender HarbourBake --sender 0412345678 --owner-email owner@example.com.au'],
    modules: [AccountsModule, UsersModule],
    run: async (app, v) => {
      const input = {
        name: v.name,
        isTest: v.test,
        allowDuplicateContacts: v['allow-duplicate-contacts'],
        creditsHundredths: creditsFlag(v.credits, 'credits'),
        senders: v.sender ?? [],
      };
      const ownerEmail = v['owner-email'] === undefined ? undefined : emailFlag(v['owner-email'], 'owner-email');
      const { account, key, owner } = ownerEmail
        ? await app.get(UsersService).createAccountWithOwner(input, ownerEmail)
        : { ...(await app.get(AccountsService).create(input)), owner: undefined };
      return {
        account_id: account.id,
        name: account.name,
        test: account.isTest,
        credit_balance: hundredthsToNumber(account.creditBalance),
        api_username: key.username,
        api_password: key.password,
        ...(owner ? { owner: userView(owner.user, owner.link) } : {}),
      };
    },
  }),

  defineCommand({
    name: 'account:show',
    summary: 'account settings, balance, active senders',
    options: { account: { type: 'string', value: 'ID', required: true, help: 'the account' } },
    examples: ['--account 1'],
    modules: [AccountsModule, SendersModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      const account = await app.get(AccountsService).get(accountId);
      const senders = await app.get(SendersService).listActive(accountId);
      const keys = await app.get(ApiKeysService).list(accountId);
      return {
        account_id: account.id,
        name: account.name,
        test: account.isTest,
        allow_duplicate_contacts: account.allowDuplicateContacts,
        credit_balance: hundredthsToNumber(account.creditBalance),
        credits_per_part: hundredthsToNumber(account.partRate),
        billing_email: account.billingEmail,
        senders: senders.results,
        active_api_keys: keys.filter((k) => !k.revokedAt).length,
        created_at: account.createdAt.toISOString(),
      };
    },
  }),

  defineCommand({
    name: 'account:list',
    summary: 'accounts in id order, with owner, users and active keys (paged)',
    description: 'Prints at most --limit accounts after --after; `next_after` is the --after of the next page (null on the last).',
    options: {
      name: { type: 'string', value: 'TEXT', help: 'only accounts whose name contains TEXT (any case)' },
      after: { type: 'string', value: 'ID', help: 'start after this account id' },
      limit: { type: 'string', value: 'N', help: 'accounts per page, 1-1000 (default 100)' },
    },
    examples: ['', '--name bakery --limit 20', '--after 100'],
    modules: [AccountsModule],
    run: async (app, v) => {
      const limit = countFlag(v.limit, 'limit', 100, 1000);
      const afterId = v.after === undefined ? 0 : positiveId(v.after, 'after');
      const page = await app.get(AccountsService).listForOperator({ nameContains: v.name?.trim() || undefined, afterId, limit });
      return {
        accounts: page.accounts.map((a) => ({
          account_id: a.id,
          name: a.name,
          test: a.isTest,
          credit_balance: hundredthsToNumber(a.creditBalance),
          owner_email: a.ownerEmail,
          users: a.users,
          active_api_keys: a.activeApiKeys,
          created_at: a.createdAt.toISOString(),
        })),
        next_after: page.more ? page.accounts[page.accounts.length - 1].id : null,
      };
    },
  }),
  ...LIVE_REQUEST_COMMANDS,
  defineCommand({
    name: 'account:release-brake',
    summary: 'lets an account paused by the sending brake send again (its owner and the operators were emailed when it paused)',
    description:
      'The volume that paused it becomes its baseline, so the same level goes through and only a further jump pauses it again. Recorded in the audit log. An account that is not paused is left as it is (released: false).',
    options: { account: { type: 'string', value: 'ID', required: true, help: 'the account' } },
    examples: ['--account 1'],
    modules: [SendingBrakeModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      const { released, pausedAt, pausedVolume } = await app.get(SendingBrakeService).release(operatorActor(accountId));
      return { account_id: accountId, released, paused_at: pausedAt?.toISOString() ?? null, paused_volume: pausedVolume, sending: 'allowed' };
    },
  }),
];
