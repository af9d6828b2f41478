import type { DomainError } from '../common/errors/domain-error';
import { ErrorText } from '../common/errors/error-catalogue';

/**
 * What a page asks for when a field the shared checks need is empty. Those checks answer in the API's
 * words (`number is required`), which the interface fixes for API clients; a person on a page gets the
 * fix in the form's own terms. The keys are the field names the services pass to `failure('required', …)`.
 * `card` is a card chosen from the saved ones (Buy credits, auto-recharge); adding a card has its own texts.
 */
const ENTER_FIELD: Readonly<Record<string, string>> = {
  number: 'Enter a mobile number',
  name: 'Enter a name',
  credits: 'Enter how many credits to buy',
  card: 'Choose a card',
  list_id: 'Choose a list',
  Label: 'Enter a label for the key',
  sender: 'Enter the Sender ID',
  business_name: ErrorText.signUpBusinessNameRequired,
  abn: ErrorText.liveAbnRequired,
  reason: 'Say why you send as this ID',
  allowed_from: 'Enter the time sending may start, such as 09:00',
  allowed_until: 'Enter the time sending must stop, such as 20:00',
};

/** Other API texts a page shows in its own words (the Go live page's ABN texts, the Buy credits quantity, Quiet hours' fields). */
const REWORDED: ReadonlyMap<string, string> = new Map([
  ...Object.entries(ENTER_FIELD).map(([field, text]) => [ErrorText.required(field), text] as const),
  [ErrorText.abnNotDigits, ErrorText.liveAbnFormat],
  [ErrorText.abnLength, ErrorText.liveAbnFormat],
  [ErrorText.abnChecksum, ErrorText.liveAbnChecksum],
  [ErrorText.creditsNotWhole, 'Enter a whole number of credits, such as 5000'],
  [ErrorText.quietHoursTimeInvalid('allowed_from'), 'Enter the time sending may start as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 09:00'],
  [ErrorText.quietHoursTimeInvalid('allowed_until'), 'Enter the time sending must stop as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 20:00'],
  [ErrorText.quietHoursWindowInvalid, 'Sending must start before it stops: make the start time earlier than the stop time'],
  [ErrorText.quietHoursDaysInvalid, 'Tick at least one day on which sending is allowed'],
  [ErrorText.quietHoursSkipDatesInvalid, 'Write each date with no sending as YYYY-MM-DD on a line of its own, at most 100 dates'],
  [ErrorText.quietHoursZoneFieldInvalid, 'Choose where the recipient’s time zone comes from'],
]);

/** The text a form shows for a fixable error: the page's wording where it has one, the error's own text otherwise. */
export function pageWordingOf(error: DomainError): string {
  return REWORDED.get(error.message) ?? error.message;
}
