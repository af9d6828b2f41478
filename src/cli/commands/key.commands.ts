import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { ApiKeysService, MAX_DAILY_LIMIT_CENTS, MAX_LABEL_LENGTH } from '../../accounts/api-keys.service';
import { parseCreditsToHundredths } from '../../billing/money';
import { UsageText } from '../../common/errors/error-catalogue';
import { positiveId, UsageError } from '../cli-args';
import { defineCommand } from '../command';
import { keyView } from './views';

/** --daily-limit in cents: dollars with two decimals at most, no more than the Settings page allows (the column is an integer). */
function dailyLimitFlag(text: string): number {
  const cents = parseCreditsToHundredths(text);
  if (cents === null || cents > MAX_DAILY_LIMIT_CENTS) throw new UsageError(UsageText.flagAmountUpTo('daily-limit', String(MAX_DAILY_LIMIT_CENTS / 100)));
  return cents;
}

export const COMMANDS = [
  defineCommand({
    name: 'key:create',
    summary: 'another API key (at most 10 active per account); the password is printed only this once',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      label: { type: 'string', value: 'LABEL', required: true, maxLength: MAX_LABEL_LENGTH, help: 'what the key is for' },
    },
    examples: ['--account 1 --label "online shop"'],
    modules: [AccountsModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      const key = await app.get(ApiKeysService).issue(accountId, v.label);
      return { api_key_id: key.apiKeyId, api_username: key.username, api_password: key.password, label: key.label };
    },
  }),

  defineCommand({
    name: 'key:revoke',
    summary: 'revokes a key; its next request fails on every instance',
    options: { username: { type: 'string', value: 'USERNAME', required: true, help: "the key's api_username" } },
    examples: ['--username api_54XWFc2DvuhqPXAT'],
    modules: [AccountsModule],
    run: async (app, v) => {
      const key = await app.get(ApiKeysService).revoke(v.username);
      return { api_username: key.username, revoked: true, revoked_at: key.revokedAt?.toISOString() ?? null };
    },
  }),

  defineCommand({
    name: 'key:list',
    summary: "an account's keys, without secrets",
    options: { account: { type: 'string', value: 'ID', required: true, help: 'the account' } },
    examples: ['--account 1'],
    modules: [AccountsModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      return { account_id: accountId, keys: (await app.get(ApiKeysService).list(accountId)).map(keyView) };
    },
  }),

  defineCommand({
    name: 'key:purchases',
    summary: "a key's purchases switch and daily limit",
    description: 'Exactly one of --enable or --disable.',
    options: {
      username: { type: 'string', value: 'USERNAME', required: true, help: "the key's api_username" },
      enable: { type: 'boolean', help: 'let the key buy credits and numbers' },
      disable: { type: 'boolean', help: 'stop the key buying' },
      'daily-limit': { type: 'string', value: 'AUD', help: `the most the key may spend a day, in dollars inc. GST (0 to ${MAX_DAILY_LIMIT_CENTS / 100})` },
    },
    examples: ['--username api_54XWFc2DvuhqPXAT --enable --daily-limit 750'],
    modules: [AccountsModule],
    run: async (app, v) => {
      if (v.enable === v.disable) throw new UsageError(UsageText.exactlyOneOf('enable', 'disable'));
      const limit = v['daily-limit'] === undefined ? undefined : dailyLimitFlag(v['daily-limit']);
      return keyView(await app.get(ApiKeysService).setPurchases(v.username, v.enable, limit));
    },
  }),
];
