import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { BillingModule } from '../../billing/billing.module';
import { CreditsService, MAX_GRANT_REASON_LENGTH } from '../../billing/credits.service';
import { LedgerVerificationService } from '../../billing/ledger-verification.service';
import { hundredthsToNumber } from '../../billing/money';
import { UsageText } from '../../common/errors/error-catalogue';
import { positiveId } from '../cli-args';
import { CommandOutcome, defineCommand, EXIT } from '../command';
import { creditsFlag } from '../flag-values';

export const COMMANDS = [
  defineCommand({
    name: 'credits:add',
    summary: 'grants credits through the ledger',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      credits: { type: 'string', value: 'CREDITS', required: true, help: 'how many (more than 0, two decimals at most)' },
      reason: { type: 'string', value: 'TEXT', maxLength: MAX_GRANT_REASON_LENGTH, help: "kept on the ledger entry, shown on the account's statement (default: operator grant)" },
    },
    examples: ['--account 1 --credits 20.5 --reason goodwill'],
    modules: [AccountsModule, BillingModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      const amount = creditsFlag(v.credits, 'credits', false);
      const balance = await app.get(CreditsService).grant(accountId, amount, v.reason?.trim() || 'operator grant', 'cli');
      return { account_id: accountId, credits_added: hundredthsToNumber(amount), credit_balance: hundredthsToNumber(balance) };
    },
  }),

  defineCommand({
    name: 'ledger:verify',
    summary: 'proves the money adds up, for every account or one (exit 1 with the violations when it does not)',
    description:
      'On one snapshot: balance = sum of the ledger; each send debited once for its successful messages (never a test send); every debit pays for a send; every refund names the cancelled messages it pays back, at their cost; no refunded message was submitted.',
    options: { account: { type: 'string', value: 'ID', help: 'only this account' } },
    examples: ['', '--account 1'],
    modules: [AccountsModule, BillingModule],
    run: async (app, v) => {
      const accountId = v.account === undefined ? null : positiveId(v.account, 'account');
      if (accountId !== null) await app.get(AccountsService).get(accountId);
      const report = await app.get(LedgerVerificationService).verify(accountId);
      return report.ok ? new CommandOutcome(report, EXIT.ok) : new CommandOutcome(report, EXIT.failed, UsageText.ledgerViolations(report.violations.length));
    },
  }),
];
