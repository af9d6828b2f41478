import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { UsageText } from '../../common/errors/error-catalogue';
import { ComplianceModule } from '../../compliance/compliance.module';
import { ComplianceVerificationService } from '../../compliance/compliance-verification.service';
import { positiveId } from '../cli-args';
import { CommandOutcome, defineCommand, EXIT } from '../command';

export const COMMANDS = [
  defineCommand({
    name: 'compliance:verify',
    summary: 'proves no message went to a number after it opted out, for every account or one (exit 1 with the violations when one did)',
    description:
      'On one snapshot, from the consent records (and unsubscribes older than them): no message was claimed for dispatch after its number opted out, unless its send ignored unsubscribes (those are listed under ignored_unsubscribes); no list send addressed a number opted out when the send was accepted.',
    options: { account: { type: 'string', value: 'ID', help: 'only this account' } },
    examples: ['', '--account 1'],
    modules: [AccountsModule, ComplianceModule],
    run: async (app, v) => {
      const accountId = v.account === undefined ? null : positiveId(v.account, 'account');
      if (accountId !== null) await app.get(AccountsService).get(accountId);
      const report = await app.get(ComplianceVerificationService).verify(accountId);
      return report.ok ? new CommandOutcome(report, EXIT.ok) : new CommandOutcome(report, EXIT.failed, UsageText.complianceViolations(report.violations.length));
    },
  }),
];
