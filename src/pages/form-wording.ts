import type { DomainError } from '../common/errors/domain-error';
import { ErrorText } from '../common/errors/error-catalogue';

/**
 * What a page asks for when a field the shared checks need is empty. Those checks answer in the API's
 * words (`number is required`), which the interface fixes for API clients; a person on a page gets the
 * fix in the form's own terms. The keys are the field names the services pass to `failure('required', …)`.
 * `card` is a card chosen from the saved ones (Buy credits, auto-recharge); adding a card has its own texts.
 * The Quiet hours page is left out: all its texts name its fields as the API does.
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
};

/** Other API texts a page shows in its own words (the Go live page's ABN texts, the Buy credits quantity). */
const REWORDED: ReadonlyMap<string, string> = new Map([
  ...Object.entries(ENTER_FIELD).map(([field, text]) => [ErrorText.required(field), text] as const),
  [ErrorText.abnNotDigits, ErrorText.liveAbnFormat],
  [ErrorText.abnLength, ErrorText.liveAbnFormat],
  [ErrorText.abnChecksum, ErrorText.liveAbnChecksum],
  [ErrorText.creditsNotWhole, 'Enter a whole number of credits, such as 5000'],
]);

/** The text a form shows for a fixable error: the page's wording where it has one, the error's own text otherwise. */
export function pageWordingOf(error: DomainError): string {
  return REWORDED.get(error.message) ?? error.message;
}
