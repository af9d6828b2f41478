import { failure } from '../common/errors/error-catalogue';
import { checkAbn } from '../sender-identity/abn';

export const MAX_LIVE_BUSINESS_NAME_LENGTH = 200;
export const MAX_INTENDED_USE_LENGTH = 1000;
export const MAX_WEBSITE_LENGTH = 200;
export const MAX_DECLINE_REASON_LENGTH = 500;

export interface LiveRequestInput {
  businessName: string;
  abn: string;
  website: string;
  intendedUse: string;
}

/** An http(s) address with a dotted host; people often type it without the scheme, so https:// is assumed then. */
function checkedWebsite(input: string): string {
  const typed = input.trim();
  if (typed === '') return '';
  const withScheme = /^https?:\/\//i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw failure('liveWebsiteInvalid');
  }
  if (!/^https?:$/.test(url.protocol) || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(url.hostname) || /\s/.test(typed) || withScheme.length > MAX_WEBSITE_LENGTH) {
    throw failure('liveWebsiteInvalid');
  }
  return withScheme;
}

/** The Go live form's rules, in field order; the first failure is thrown with its catalogue text. */
export function checkLiveRequest(input: LiveRequestInput): LiveRequestInput {
  const businessName = input.businessName.trim().replace(/\s+/g, ' ');
  if (businessName === '') throw failure('liveBusinessNameRequired');
  if ([...businessName].length > MAX_LIVE_BUSINESS_NAME_LENGTH) throw failure('liveBusinessNameTooLong');
  if (input.abn.trim() === '') throw failure('liveAbnRequired');
  // The ATO's checksum, as Sender ID registrations check it.
  const abn = checkAbn(input.abn);
  if (!abn.ok) throw failure(abn.problem === 'checksum' ? 'liveAbnChecksum' : 'liveAbnFormat');
  const website = checkedWebsite(input.website);
  const intendedUse = input.intendedUse.trim();
  if (intendedUse === '') throw failure('liveUseRequired');
  if ([...intendedUse].length > MAX_INTENDED_USE_LENGTH) throw failure('liveUseTooLong');
  return { businessName, abn: abn.abn, website, intendedUse };
}

/** An operator's decline reason, told to the owner: one line, 1 to 500 characters. */
export function checkDeclineReason(reason: string): string {
  const text = reason.trim().replace(/\s+/g, ' ');
  if (text === '') throw failure('required', 'reason');
  if (text.length > MAX_DECLINE_REASON_LENGTH) throw failure('declineReasonTooLong');
  return text;
}
