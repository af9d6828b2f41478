import { DomainError } from '../../common/errors/domain-error';
import { failure } from '../../common/errors/error-catalogue';
import { checkAbn } from '../abn';
import { checkSenderId } from '../sender-id';

export const MAX_BUSINESS_NAME_LENGTH = 200;
export const MAX_REASON_LENGTH = 1000;

export interface RegistrationInput {
  sender: string;
  businessName: string;
  abn: string;
  reason: string;
}

export interface CheckedRegistration extends RegistrationInput {
  brandKey: string;
}

/** The supplement's rules for a Sender ID registration, checked in field order; the first failure is thrown with its catalogue text. */
export function checkRegistration(input: RegistrationInput): CheckedRegistration {
  const sender = input.sender.trim();
  if (sender === '') throw failure('required', 'sender');
  const id = checkSenderId(sender);
  if (!id.ok) throw senderIdFailure(id.problem);
  const businessName = input.businessName.trim().replace(/\s+/g, ' ');
  if (businessName === '') throw failure('required', 'business_name');
  if (businessName.length > MAX_BUSINESS_NAME_LENGTH) throw failure('businessNameTooLong');
  if (input.abn.trim() === '') throw failure('required', 'abn');
  const abn = checkAbn(input.abn);
  if (!abn.ok) throw failure(abn.problem === 'not_digits' ? 'abnNotDigits' : abn.problem === 'length' ? 'abnLength' : 'abnChecksum');
  const reason = input.reason.trim();
  if (reason === '') throw failure('required', 'reason');
  if (reason.length > MAX_REASON_LENGTH) throw failure('registrationReasonTooLong');
  return { sender: id.value, brandKey: id.brandKey, businessName, abn: abn.abn, reason };
}

function senderIdFailure(problem: 'length' | 'characters' | 'letter'): DomainError {
  if (problem === 'length') return failure('senderIdLength');
  if (problem === 'characters') return failure('senderIdCharacters');
  return failure('senderIdNeedsLetter');
}
