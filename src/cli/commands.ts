import { readFile } from 'node:fs/promises';
import type { INestApplicationContext } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { ApiKey } from '../accounts/api-key.entity';
import { ApiKeysService } from '../accounts/api-keys.service';
import { CreditsService } from '../billing/credits.service';
import { LedgerVerificationService } from '../billing/ledger-verification.service';
import { hundredthsToNumber, parseCreditsToHundredths } from '../billing/money';
import { ImportContactsService } from '../lists/import-contacts.service';
import { SENDER_TYPES, SenderType } from '../senders/sender.entity';
import { SendersService } from '../senders/senders.service';
import { UsageText } from '../common/errors/error-catalogue';
import { normaliseEmail } from '../users/email';
import type { CreatedUser } from '../users/users.service';
import { UsersService } from '../users/users.service';
import { parseCommandArgs, requireId, requireString, UsageError } from './cli-args';
import { SENDER_COMMANDS } from './sender-commands';
import { PURCHASE_COMMANDS } from './purchase-commands';

export type Command = (app: INestApplicationContext, argv: string[]) => Promise<unknown>;

/** A result printed like any other, with the exit code it calls for (a check that found problems exits 1). */
export class CommandOutcome {
  constructor(
    readonly output: unknown,
    readonly exitCode: number,
    /** A line for stderr, saying why the exit code is not 0. */
    readonly complaint?: string,
  ) {}
}

function credits(text: string | undefined, flag: string, allowZero = true): number {
  if (text === undefined) return 0;
  const hundredths = parseCreditsToHundredths(text);
  if (hundredths === null || (!allowZero && hundredths === 0)) throw new UsageError(UsageText.flagCredits(flag, allowZero));
  return hundredths;
}

function senderType(text: string | undefined): SenderType | undefined {
  if (text === undefined) return undefined;
  if (!(SENDER_TYPES as readonly string[]).includes(text)) throw new UsageError(UsageText.flagOneOf('type', SENDER_TYPES));
  return text as SenderType;
}

function email(values: Record<string, unknown>, flag: string): string {
  const value = normaliseEmail(requireString(values, flag));
  if (!value) throw new UsageError(UsageText.flagEmail(flag));
  return value;
}

/** A created user and their single-use set-password link (also emailed), so an operator can pass it on. */
function userView({ user, link }: CreatedUser) {
  return { user_id: user.id, account_id: user.accountId, email: user.email, owner: user.isOwner, permissions: user.permissions, set_password_link: link };
}

function keyView(key: ApiKey) {
  return {
    api_key_id: key.id,
    api_username: key.username,
    label: key.label,
    purchases_enabled: key.purchasesEnabled,
    daily_limit: Number((key.dailyLimitCents / 100).toFixed(2)),
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt ? key.revokedAt.toISOString() : null,
  };
}

export const COMMANDS: Record<string, Command> = {
  'account:create': async (app, argv) => {
    const v = parseCommandArgs(argv, {
      name: { type: 'string' },
      test: { type: 'boolean' },
      credits: { type: 'string' },
      sender: { type: 'string', multiple: true },
      'allow-duplicate-contacts': { type: 'boolean' },
      'owner-email': { type: 'string' },
    });
    const input = {
      name: requireString(v, 'name'),
      isTest: v.test === true,
      allowDuplicateContacts: v['allow-duplicate-contacts'] === true,
      creditsHundredths: credits(v.credits, 'credits'),
      senders: v.sender ?? [],
    };
    const ownerEmail = v['owner-email'] === undefined ? undefined : email(v, 'owner-email');
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
      ...(owner ? { owner: userView(owner) } : {}),
    };
  },

  'user:create': async (app, argv) => {
    const v = parseCommandArgs(argv, {
      account: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      owner: { type: 'boolean' },
      permission: { type: 'string', multiple: true },
    });
    const accountId = requireId(v, 'account');
    const address = email(v, 'email');
    if (v.owner === true && v.permission?.length) throw new UsageError(UsageText.ownerTakesNoPermission);
    return userView(await app.get(UsersService).createByOperator(accountId, { email: address, name: v.name, owner: v.owner === true, permissions: v.permission ?? [] }));
  },

  'account:show': async (app, argv) => {
    const accountId = requireId(parseCommandArgs(argv, { account: { type: 'string' } }), 'account');
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

  'key:create': async (app, argv) => {
    const v = parseCommandArgs(argv, { account: { type: 'string' }, label: { type: 'string' } });
    const accountId = requireId(v, 'account');
    await app.get(AccountsService).get(accountId);
    const key = await app.get(ApiKeysService).issue(accountId, requireString(v, 'label'));
    return { api_key_id: key.apiKeyId, api_username: key.username, api_password: key.password, label: key.label };
  },

  'key:revoke': async (app, argv) => {
    const key = await app.get(ApiKeysService).revoke(requireString(parseCommandArgs(argv, { username: { type: 'string' } }), 'username'));
    return { api_username: key.username, revoked: true, revoked_at: key.revokedAt?.toISOString() ?? null };
  },

  'key:list': async (app, argv) => {
    const accountId = requireId(parseCommandArgs(argv, { account: { type: 'string' } }), 'account');
    await app.get(AccountsService).get(accountId);
    return { account_id: accountId, keys: (await app.get(ApiKeysService).list(accountId)).map(keyView) };
  },

  'key:purchases': async (app, argv) => {
    const v = parseCommandArgs(argv, { username: { type: 'string' }, enable: { type: 'boolean' }, disable: { type: 'boolean' }, 'daily-limit': { type: 'string' } });
    if (v.enable === v.disable) throw new UsageError(UsageText.exactlyOneOf('enable', 'disable'));
    const limit = v['daily-limit'] === undefined ? undefined : credits(v['daily-limit'], 'daily-limit');
    return keyView(await app.get(ApiKeysService).setPurchases(requireString(v, 'username'), v.enable === true, limit));
  },

  'sender:add': async (app, argv) => {
    const v = parseCommandArgs(argv, { account: { type: 'string' }, sender: { type: 'string' }, type: { type: 'string' } });
    const accountId = requireId(v, 'account');
    await app.get(AccountsService).get(accountId);
    const sender = await app.get(SendersService).add(accountId, requireString(v, 'sender'), senderType(v.type));
    return { account_id: accountId, sender: sender.value, type: sender.type, status: sender.status };
  },

  'sender:remove': async (app, argv) => {
    const v = parseCommandArgs(argv, { account: { type: 'string' }, sender: { type: 'string' } });
    const accountId = requireId(v, 'account');
    await app.get(AccountsService).get(accountId);
    const sender = requireString(v, 'sender');
    return { account_id: accountId, sender, removed: await app.get(SendersService).remove(accountId, sender) };
  },

  'contacts:import': async (app, argv) => {
    const v = parseCommandArgs(argv, { account: { type: 'string' }, list: { type: 'string' }, file: { type: 'string' } });
    const accountId = requireId(v, 'account');
    const list = requireString(v, 'list');
    const file = requireString(v, 'file');
    await app.get(AccountsService).get(accountId);
    let csv: string;
    try {
      csv = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(UsageText.cannotReadFile(file, (err as Error).message));
    }
    return app.get(ImportContactsService).importCsv(accountId, list, csv);
  },

  'ledger:verify': async (app, argv) => {
    const v = parseCommandArgs(argv, { account: { type: 'string' } });
    const accountId = v.account === undefined ? null : requireId(v, 'account');
    if (accountId !== null) await app.get(AccountsService).get(accountId);
    const report = await app.get(LedgerVerificationService).verify(accountId);
    return report.ok ? new CommandOutcome(report, 0) : new CommandOutcome(report, 1, UsageText.ledgerViolations(report.violations.length));
  },

  'credits:add': async (app, argv) => {
    const v = parseCommandArgs(argv, { account: { type: 'string' }, credits: { type: 'string' }, reason: { type: 'string' } });
    const accountId = requireId(v, 'account');
    await app.get(AccountsService).get(accountId);
    const amount = credits(requireString(v, 'credits'), 'credits', false);
    const balance = await app.get(CreditsService).grant(accountId, amount, v.reason ?? 'operator grant', 'cli');
    return { account_id: accountId, credits_added: hundredthsToNumber(amount), credit_balance: hundredthsToNumber(balance) };
  },

  ...SENDER_COMMANDS,
  ...PURCHASE_COMMANDS,
};
