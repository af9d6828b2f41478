import { readFile } from 'node:fs/promises';
import { UsageText } from '../common/errors/error-catalogue';
import { formatUtc } from '../common/time/format';
import { NumberImportService } from '../numbers/number-import.service';
import { REGISTRATION_STATES, RegistrationState } from '../sender-identity/registrations/sender-registration.entity';
import type { RegistrationWithAccount } from '../sender-identity/registrations/sender-registrations.repository';
import { SenderRegistrationsService } from '../sender-identity/registrations/sender-registrations.service';
import { parseCommandArgs, requireId, requireString, UsageError } from './cli-args';
import type { Command } from './commands';

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

function state(text: string | undefined): RegistrationState | undefined {
  if (text === undefined) return undefined;
  if (!(REGISTRATION_STATES as readonly string[]).includes(text)) throw new UsageError(UsageText.flagOneOf('state', REGISTRATION_STATES));
  return text as RegistrationState;
}

/** Operator commands of sender identity: reviewing Sender ID registrations, loading the number inventory. */
export const SENDER_COMMANDS: Record<string, Command> = {
  'registration:list': async (app, argv) => {
    const v = parseCommandArgs(argv, { state: { type: 'string' } });
    return { registrations: (await app.get(SenderRegistrationsService).listAll(state(v.state))).map(registrationView) };
  },

  'registration:approve': async (app, argv) => {
    const id = requireId(parseCommandArgs(argv, { id: { type: 'string' } }), 'id');
    const { registration, emailed } = await app.get(SenderRegistrationsService).approve(id);
    return { ...registrationView(registration), sender_active: true, emailed };
  },

  'registration:reject': async (app, argv) => {
    const v = parseCommandArgs(argv, { id: { type: 'string' }, reason: { type: 'string' } });
    const id = requireId(v, 'id');
    const { registration, emailed } = await app.get(SenderRegistrationsService).reject(id, requireString(v, 'reason'));
    return { ...registrationView(registration), emailed };
  },

  'numbers:import': async (app, argv) => {
    const file = requireString(parseCommandArgs(argv, { file: { type: 'string' } }), 'file');
    let csv: string;
    try {
      csv = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(UsageText.cannotReadFile(file, (err as Error).message));
    }
    return { file, ...(await app.get(NumberImportService).importCsv(csv)) };
  },
};
