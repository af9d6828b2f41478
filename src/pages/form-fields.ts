import type { DomainError } from '../common/errors/domain-error';
import { CATALOGUE, type Condition } from '../common/errors/error-catalogue';

/**
 * Which form field an error is about, so a re-rendered form can mark that field (aria-invalid, pointing at the
 * error's text) as well as showing the text at the top. The value is the field's `name` on the dashboard's and
 * public pages' forms. An error about no one field (the sign-in pair, a period's order, a choice among radio
 * buttons or checkboxes, a webhook URL that does not say which) is not listed: it stays in the alert alone.
 */
const FIELD_OF_CONDITION: Partial<Readonly<Record<Condition, string>>> = {
  invalidPhoneNumber: 'number',
  duplicateContact: 'number',
  optoutNumberInvalid: 'number',
  keywordRuleNumberInvalid: 'number',
  senderAlreadyActive: 'number',
  duplicateListName: 'name',
  nameTooLong: 'name',
  signUpNameRequired: 'name',
  apiKeyLabelTooLong: 'label',
  senderLabelTooLong: 'label',
  apiKeyCidrInvalid: 'allowed_cidrs',
  apiKeyCidrsTooMany: 'allowed_cidrs',
  apiKeyCapInvalid: 'daily_message_cap',
  dailyLimitInvalid: 'daily_limit',
  keywordInvalid: 'keyword',
  pageKeywordRequired: 'keyword',
  keywordReplyTooLong: 'reply',
  quietHoursSkipDatesInvalid: 'skip_dates',
  quietHoursZoneFieldInvalid: 'zone_field',
  passwordTooShort: 'password',
  passwordTooLong: 'password',
  passwordsDoNotMatch: 'confirmation',
  currentPasswordWrong: 'current',
  twoFactorCodeWrong: 'code',
  emailInvalid: 'email',
  emailTaken: 'email',
  signUpBusinessNameRequired: 'business_name',
  signUpBusinessNameTooLong: 'business_name',
  liveBusinessNameRequired: 'business_name',
  liveBusinessNameTooLong: 'business_name',
  businessNameTooLong: 'business_name',
  liveAbnRequired: 'abn',
  liveAbnFormat: 'abn',
  liveAbnChecksum: 'abn',
  abnNotDigits: 'abn',
  abnLength: 'abn',
  abnChecksum: 'abn',
  liveWebsiteInvalid: 'website',
  liveUseRequired: 'intended_use',
  liveUseTooLong: 'intended_use',
  senderIdLength: 'sender',
  senderIdCharacters: 'sender',
  senderIdNeedsLetter: 'sender',
  senderIdReserved: 'sender',
  senderIdAlreadyActive: 'sender',
  senderIdAwaitingReview: 'sender',
  senderIdRegisteredElsewhere: 'sender',
  registrationReasonTooLong: 'reason',
  serviceAddressStreet: 'street',
  serviceAddressState: 'state',
  serviceAddressPostcode: 'postcode',
  cardNumberRequired: 'card',
  paymentMethodRequired: 'card',
  notATestCard: 'card',
  cardRejected: 'card',
  creditsNotWhole: 'credits',
  creditsBelowMinimum: 'credits',
  creditsAboveMaximum: 'credits',
  billingEmailInvalid: 'billing_email',
  timeZoneInvalid: 'time_zone',
  composeNumbersRequired: 'numbers',
  composeTooManyNumbers: 'numbers',
  composeListRequired: 'list_id',
  pageMessageRequired: 'message',
  unicodeRequired: 'message',
  tooManyParts: 'message',
  composeScheduleInvalid: 'send_date',
  composeScheduleSkipped: 'send_time',
  composeSchedulePast: 'send_time',
  composeTestMobileUnknown: 'test_to',
  staggerOutOfRange: 'stagger_minutes',
  messageIdInvalid: 'message_id',
};

/**
 * Conditions whose text starts with the field's name (`number is required`, `The threshold must be a whole
 * number from 1 to …`): a wire name is the form's; other names are renamed here, or null for no one field.
 */
const NAMED_IN_TEXT: ReadonlySet<Condition> = new Set<Condition>([
  'required',
  'mustBeString',
  'mustBePositiveInteger',
  'unstorableText',
  'balanceSettingOutOfRange',
  'quietHoursTimeInvalid',
  'invalidRedeliveryTime',
]);

/** The API key's label; Billing's settings, named in words (recharge/balance-settings); a card chosen among radio buttons or in a select. */
const RENAMED: Readonly<Record<string, string | null>> = {
  Label: 'label',
  'The threshold': 'below_credits',
  'The amount to buy': 'buy_credits',
  'Recharges a day': 'max_per_day',
  'The warning threshold': 'warn_below',
  card: null,
  service_address: null,
};

/** A shared check wraps a catalogue text in `invalidField`; its fixed text says which condition it is. */
const CONDITION_OF_TEXT: ReadonlyMap<string, Condition> = new Map(
  (Object.entries(CATALOGUE) as Array<[Condition, { text: unknown }]>).filter(([, e]) => typeof e.text === 'string').map(([c, e]) => [e.text as string, c]),
);

/** The `name` of the form field the error is about, or undefined when it is about no one field. */
export function fieldOfError(error: DomainError): string | undefined {
  const condition = (error.condition === 'invalidField' ? CONDITION_OF_TEXT.get(error.message) : undefined) ?? (error.condition as Condition);
  if (!NAMED_IN_TEXT.has(condition)) return FIELD_OF_CONDITION[condition];
  const named = /^(.+?) (?:is required|must )/.exec(error.message)?.[1];
  if (named === undefined) return undefined;
  if (named in RENAMED) return RENAMED[named] ?? undefined;
  return /^[a-z][a-z0-9_]*$/.test(named) ? named : undefined;
}
