import { failure } from '../common/errors/error-catalogue';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** At least 12 characters (issue 11), at most 256 (a hash input, not a document); the two entries must match. */
export function checkNewPassword(password: string, confirmation: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) throw failure('passwordTooShort');
  if ([...password].length > MAX_PASSWORD_LENGTH) throw failure('passwordTooLong');
  if (password !== confirmation) throw failure('passwordsDoNotMatch');
}
