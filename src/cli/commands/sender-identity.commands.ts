import { formatUtc } from '../../common/time/format';
import { NumberImportService } from '../../numbers/number-import.service';
import { NumbersModule } from '../../numbers/numbers.module';
import { REGISTRATION_STATES } from '../../sender-identity/registrations/sender-registration.entity';
import type { RegistrationWithAccount } from '../../sender-identity/registrations/sender-registrations.repository';
import { MAX_REJECTION_REASON_LENGTH, SenderRegistrationsService } from '../../sender-identity/registrations/sender-registrations.service';
import { SenderRegistrationsModule } from '../../sender-identity/sender-registrations.module';
import { positiveId } from '../cli-args';
import { defineCommand } from '../command';
import { oneOfFlag } from '../flag-values';
import { readFileFlag } from './read-file';

function registrationView(r: RegistrationWithAccount | Omit<RegistrationWithAccount, 'accountName'>) {
  return {
    registration_id: r.id,
    account_id: r.accountId,
    ...('accountName' in r ? { account_name: r.accountName } : {}),
    sender: r.sender,
    business_name: r.businessName,
    abn: r.abn,
    reason: r.reason,
    state: r.state,
    rejection_reason: r.rejectionReason,
    submitted_by: r.userId !== null ? `user ${r.userId}` : r.apiKeyId !== null ? `API key ${r.apiKeyId}` : 'unknown',
    submitted_at: formatUtc(r.submittedAt),
    decided_at: r.decidedAt ? formatUtc(r.decidedAt) : null,
  };
}

/** Reviewing Sender ID registrations; loading the dedicated number inventory. */
export const COMMANDS = [
  defineCommand({
    name: 'registration:list',
    summary: 'Sender ID registrations with their account, oldest first',
    options: { state: { type: 'string', value: 'STATE', help: `${REGISTRATION_STATES.join(', ')} (submitted: the review queue)` } },
    examples: ['--state submitted'],
    modules: [SenderRegistrationsModule],
    run: async (app, v) => ({
      registrations: (await app.get(SenderRegistrationsService).listAll(oneOfFlag(v.state, 'state', REGISTRATION_STATES))).map(registrationView),
    }),
  }),

  defineCommand({
    name: 'registration:approve',
    summary: 'approves a submitted registration: the Sender ID is an active alpha sender at once; emails the owner and the submitter',
    options: { id: { type: 'string', value: 'ID', required: true, help: 'the registration' } },
    examples: ['--id 3'],
    modules: [SenderRegistrationsModule],
    run: async (app, v) => {
      const { registration, emailed } = await app.get(SenderRegistrationsService).approve(positiveId(v.id, 'id'));
      return { ...registrationView(registration), sender_active: true, emailed };
    },
  }),

  defineCommand({
    name: 'registration:reject',
    summary: 'rejects a submitted registration with the reason the account is told',
    options: {
      id: { type: 'string', value: 'ID', required: true, help: 'the registration' },
      reason: { type: 'string', value: 'TEXT', required: true, maxLength: MAX_REJECTION_REASON_LENGTH, help: 'emailed, and shown in GET /v1/sender-registrations' },
    },
    examples: ['--id 3 --reason "The ABN belongs to another business"'],
    modules: [SenderRegistrationsModule],
    run: async (app, v) => {
      const id = positiveId(v.id, 'id');
      const { registration, emailed } = await app.get(SenderRegistrationsService).reject(id, v.reason);
      return { ...registrationView(registration), emailed };
    },
  }),

  defineCommand({
    name: 'numbers:import',
    summary: 'loads dedicated numbers into the inventory; reports rows, added, skipped and invalid lines',
    description: 'Header `number,annual_price_ex_gst`: Australian mobiles in any form, prices in dollars ex GST. One set-based statement.',
    options: { file: { type: 'string', value: 'FILE', required: true, help: 'the CSV file' } },
    examples: ['--file numbers.csv'],
    modules: [NumbersModule],
    run: async (app, v) => ({ file: v.file, ...(await app.get(NumberImportService).importCsv(await readFileFlag(v.file))) }),
  }),
];
