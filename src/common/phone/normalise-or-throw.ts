import { failure } from '../errors/error-catalogue';
import { normaliseAuMobile } from './au-mobile';

/** The number in its canonical form (`61412345678`); 400 `Invalid phone number format` when it is not an Australian mobile. */
export function normaliseOrThrow(number: string): string {
  const normalised = normaliseAuMobile(number);
  if (!normalised) throw failure('invalidPhoneNumber');
  return normalised;
}
