import { DomainError, DomainErrorKind } from './domain-error';

type Text = string | ((...args: never[]) => string);
const entry = <T extends Text>(kind: DomainErrorKind, text: T) => ({ kind, text });
/** `1 minute`, `45 minutes`, `3 hours`: a wait as people say it. */
const waitWords = (minutes: number) => (minutes < 120 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.ceil(minutes / 60)} hours`);

/**
 * Every error the service answers with, in one place: the condition, its kind (the filter maps kinds
 * to statuses) and its text. Texts are part of the contract (interface: Errors; supplement: Our
 * decisions and Clarifications): change none without the spec.
 */
export const CATALOGUE = {
  // Authentication, limits, transport
  authenticationRequired: entry('unauthenticated', 'Authentication required'),
  invalidCredentials: entry('unauthenticated', 'Invalid API username or password'),
  tooManyConcurrentRequests: entry('too_many_requests', 'Too many concurrent requests. Please wait.'),
  notFound: entry('not_found', 'Not found'),
  methodNotAllowed: entry('method_not_allowed', (methods: readonly string[]) => `Invalid request method. Allowed methods: ${methods.join(', ')}`),
  invalidJson: entry('invalid', 'Request body is not valid JSON'),
  bodyNotObject: entry('invalid', 'Request body must be a JSON object'),
  bodyTooDeep: entry('invalid', (maxDepth: number) => `Request body is nested too deeply (at most ${maxDepth} levels)`),
  bodyTooLarge: entry('too_large', 'Request body is too large'),
  unsupportedMediaType: entry('unsupported_media_type', 'Unsupported content type; send application/json'),
  // What Node's HTTP parser refuses before any route sees the request (common/http/client-error-handler).
  malformedRequest: entry('invalid', 'Malformed HTTP request'),
  urlTooLong: entry('url_too_long', 'Request URL is too long'),
  headersTooLarge: entry('headers_too_large', 'Request headers are too large'),
  requestTimeout: entry('request_timeout', 'Request timed out'),
  badRequest: entry('invalid', 'Bad request'),
  serviceUnavailable: entry('unavailable', 'Service temporarily unavailable, please retry'),
  internal: entry('internal', 'Internal server error'),
  /** A field rule whose text a validator already took from this catalogue. */
  invalidField: entry('invalid', (text: string) => text),
  required: entry('invalid', (field: string) => `${field} is required`),
  mustBeString: entry('invalid', (field: string) => `${field} must be a string`),
  mustBePositiveInteger: entry('invalid', (field: string) => `${field} must be a positive integer`),
  mustBeBoolean: entry('invalid', (field: string) => `${field} must be a boolean`),
  /** NUL and unpaired surrogates: PostgreSQL cannot store them (common/validation/storable-text). */
  unstorableText: entry('invalid', (field: string) => `${field} must not contain NUL characters or unpaired surrogates`),
  /** The same, caught from PostgreSQL when no field check named it (a safety net, logged). */
  unstorableInput: entry('invalid', 'Request must not contain NUL characters or unpaired surrogates'),
  limitOutOfRange: entry('invalid', 'limit must be between 1 and 200'),
  offsetInvalid: entry('invalid', 'offset must be a non-negative integer'),
  // Accounts and keys
  accountNotFound: entry('not_found', (accountId: number) => `Account ${accountId} not found`),
  tooManyApiKeys: entry('conflict', 'An account may hold at most 10 API keys'),
  apiKeyNotFound: entry('not_found', (username: string) => `No active API key with username ${username}`),
  testAccountsOnly: entry('forbidden', 'This endpoint is only available on test accounts'),
  // API key scopes, client-address allow-lists and daily message caps (common/auth/api-scopes)
  apiKeyScopeMissing: entry('forbidden', (scope: string) => `This API key does not have the ${scope} scope`),
  apiKeyAddressRefused: entry('forbidden', 'This API key cannot be used from this address'),
  dailyMessageCapReached: entry('forbidden', (cap: number) => `Daily message limit of ${cap} reached for this API key`),
  apiKeyScopesEmpty: entry('invalid', 'Choose at least one scope for the key'),
  apiKeyCidrInvalid: entry('invalid', (text: string) => `"${text}" is not an IP address or CIDR block (for example 203.0.113.0/24 or 2001:db8::/32)`),
  apiKeyCidrsTooMany: entry('invalid', (max: number) => `An API key may list at most ${max} addresses or blocks`),
  apiKeyCapInvalid: entry('invalid', (max: number) => `The daily message cap must be a whole number from 1 to ${max}, or empty for no cap`),
  // Contacts and lists
  invalidPhoneNumber: entry('invalid', 'Invalid phone number format'),
  duplicateContact: entry('conflict', 'This phone number already exists in your contacts'),
  contactNotFound: entry('not_found', 'Contact not found'),
  noFieldsToUpdate: entry('invalid', 'No fields provided to update'),
  failedToAddContact: entry('internal', 'Failed to add contact'),
  listNotFound: entry('not_found', 'List not found'),
  duplicateListName: entry('conflict', 'A list with this name already exists'),
  contactOrNumberRequired: entry('invalid', 'contact_id or number is required'),
  // Contact imports (the file, its header row and the mapping; each text says what to fix)
  contactImportInvalid: entry('invalid', (reason: string) => reason),
  contactImportNotFound: entry('not_found', 'Contact import not found'),
  optOutNotFound: entry('not_found', 'That number is not on the opt-out list'),
  contactImportStarted: entry('conflict', 'This import has already been started'),
  // Sending (interface: Errors; supplement: per-message errors)
  invalidMessages: entry('invalid', 'Missing or invalid messages parameter; should be an array of messages'),
  tooManyMessages: entry('invalid', 'The maximum number of messages per request is 10000'),
  maxPartsOutOfRange: entry('invalid', 'max_parts must be between 1 and 99'),
  staggerOutOfRange: entry('invalid', 'stagger_minutes must be between 1 and 1440'),
  noAllowedSenders: entry('forbidden', 'No allowed senders found for this user'),
  invalidSender: entry('forbidden', 'Invalid sender. You do not have permission to use this sender'),
  senderNotString: entry('invalid', 'The sender field must be a string, not an object or array'),
  insufficientCredits: entry('forbidden', 'Insufficient credits to send the batch of messages'),
  // The spending brake (src/sending-brake): every send path of a paused account
  sendingPaused: entry('forbidden', 'Sending is paused for unusual volume; contact support or an account owner to release it'),
  insufficientCreditsFor: entry('forbidden', (needed: string, available: string) => `Insufficient credits: ${needed} needed, ${available} available`),
  failedToProcessMessages: entry('internal', 'Failed to process messages'),
  unicodeRequired: entry('invalid', 'Message contains characters that require enable_unicode'),
  tooManyParts: entry('invalid', (max: number) => `Message exceeds the maximum of ${max} parts`),
  invalidScheduledFor: entry('invalid', 'scheduled_for is not a valid datetime'),
  customRefTooLong: entry('invalid', 'custom_ref must be at most 255 characters'),
  recipientUnsubscribed: entry('forbidden', 'Recipient has unsubscribed'),
  listEmpty: entry('invalid', 'The list has no contacts'),
  noRecipientsAfterUnsubscribes: entry('invalid', 'No recipients remain after filtering unsubscribes'),
  noRecipientsAfterFiltering: entry('invalid', 'No recipients remain after filtering'),
  failedToSendToList: entry('internal', 'Failed to send to list'),
  // Lookup and cancellation
  invalidStatusFilter: entry('invalid', 'Invalid status filter. Valid values: pending, scheduled, sent, delivered, failed, cancelled'),
  invalidCursor: entry('invalid', 'Invalid cursor; use the next_cursor of a previous page'),
  invalidDate: entry('invalid', (which: 'from' | 'to') => `Invalid ${which} date; expected format YYYY-MM-DD`),
  noMessagesFound: entry('not_found', 'No message(s) found with the given ID or reference'),
  cancelIdentifierRequired: entry('invalid', 'message_id, custom_ref, or send_id is required'),
  linkClicksScopeRequired: entry('invalid', 'message_id or send_id is required'),
  messageNotFound: entry('not_found', 'Message not found'),
  sendNotFound: entry('not_found', 'Send not found'),
  noScheduledForSend: entry('not_found', 'No scheduled messages found for this send'),
  noScheduledForCustomRef: entry('not_found', 'No scheduled messages found with the given custom_ref'),
  messageNotScheduled: entry('conflict', 'Message is not in a scheduled state'),
  failedToCancelMessage: entry('internal', 'Failed to cancel message'),
  failedToCancelSend: entry('internal', 'Failed to cancel send'),
  failedToCancelMessages: entry('internal', 'Failed to cancel messages'),
  // Inbound and webhooks
  invalidInboundType: entry('invalid', 'Invalid type filter. Valid values: inbound, unsubscribe'),
  noReceivingNumber: entry('invalid', 'to must be one of the account’s dedicated or shared numbers'),
  invalidWebhookUrl: entry('invalid', 'Invalid webhook URL'),
  webhookNotHttps: entry('invalid', 'Webhook URLs must use https'),
  webhookNotAllowed: entry('invalid', 'Webhook URL is not allowed'),
  webhookUrlTooLong: entry('invalid', 'Webhook URLs must be at most 2048 characters'),
  webhookUrlWhitespace: entry('invalid', 'Webhook URLs must not contain spaces or control characters'),
  webhookHostUnresolved: entry('invalid', 'Webhook URL host could not be resolved'),
  invalidEventFilter: entry('invalid', 'Invalid event filter. Valid values: status, inbound'),
  conversationNotFound: entry('not_found', 'Conversation not found'),
  // Keyword rules (src/keywords)
  keywordInvalid: entry('invalid', 'keyword must be 1 to 40 letters, digits or spaces (one word for first_word; a pattern may use * and ? and needs a letter or digit)'),
  keywordRuleNotFound: entry('not_found', 'Keyword rule not found'),
  tooManyKeywordRules: entry('conflict', (max: number) => `An account may hold at most ${max} keyword rules`),
  keywordRuleNumberInvalid: entry('invalid', 'number must be one of the account’s dedicated or shared numbers'),
  keywordReplyTooLong: entry('invalid', (max: number) => `reply exceeds the maximum of ${max} parts`),
  keywordOptInAndOut: entry('invalid', 'A rule cannot both opt out and opt back in'),
  keywordStopOnlyReply: entry('invalid', 'A rule for a STOP word may only set its confirmation reply: the opt-out always applies'),
  invalidEventKind: entry('invalid', 'event must be one of: status, inbound'),
  noWebhookUrl: entry('invalid', (kind: string) => `No ${kind} webhook URL is set`),
  webhookEventNotFound: entry('not_found', 'Webhook event not found'),
  webhookEventNotRedeliverable: entry('conflict', 'Only a failed or discarded webhook event can be redelivered'),
  invalidRedeliveryTime: entry('invalid', (field: string) => `${field} must be a UTC timestamp (YYYY-MM-DD HH:MM:SS)`),
  redeliveryPeriodBackwards: entry('invalid', 'from must be before to'),
  redeliveryDaysInvalid: entry('invalid', 'Choose the first and last day (YYYY-MM-DD), the first not after the last'),
  // Quiet hours (src/quiet-hours)
  quietHoursTimeInvalid: entry('invalid', (field: string) => `${field} must be a time HH:MM from 00:00 to 24:00`),
  quietHoursWindowInvalid: entry('invalid', 'allowed_from must be earlier than allowed_until'),
  quietHoursDaysInvalid: entry('invalid', 'days must list one or more of mon, tue, wed, thu, fri, sat, sun'),
  quietHoursSkipDatesInvalid: entry('invalid', 'skip_dates must be a list of at most 100 dates YYYY-MM-DD'),
  quietHoursZoneFieldInvalid: entry('invalid', 'zone_field must be one of: first_name, last_name, company, other, field_1, field_2, field_3, field_4, field_5'),
  quietHoursNeverOpen: entry('invalid', 'Quiet hours leave no allowed time within a year for these messages'),
  // Pages (dashboard and public pages): shown on HTML pages, never in the API
  signInRequired: entry('unauthenticated', 'Please sign in to continue'),
  csrfTokenInvalid: entry('forbidden', 'This form has expired. Go back, reload the page and try again.'),
  formContentType: entry('unsupported_media_type', 'Forms must be sent as application/x-www-form-urlencoded'),
  malformedUpload: entry('invalid', 'The upload could not be read; choose the file and send the form again'),
  uploadNotText: entry('invalid', 'The file is not UTF-8 text. Save it as CSV UTF-8 and upload it again.'),
  // The public opt-out page (GET/POST /o/{code})
  optoutNumberInvalid: entry('invalid', 'Enter an Australian mobile number, such as 0412 345 678'),
  optoutThrottled: entry('too_many_requests', 'Too many attempts from this connection. Please try again in a few minutes.'),
  shortLinkThrottled: entry('too_many_requests', 'Too many unknown links from this connection. Please try again in a few minutes.'),
  // Users, sign-in and the dashboard's actions
  signInFailed: entry('unauthenticated', 'Email or password is incorrect'),
  twoFactorCodeWrong: entry('invalid', 'That code is not right. Enter the current 6-digit code from your app, or one of your recovery codes.'),
  twoFactorThrottled: entry('too_many_requests', 'Too many wrong codes. Try again in a few minutes.'),
  twoFactorAlreadyOn: entry('conflict', 'Two-factor sign-in is already on'),
  twoFactorSetupRequired: entry('forbidden', 'Your account requires two-factor sign-in. Set it up on Your profile › Two-factor sign-in to continue.'),
  twoFactorRequiredByAccount: entry('conflict', 'Your account requires two-factor sign-in, so it cannot be turned off. The account owner can reset it if you lost your phone.'),
  twoFactorResetOwn: entry('conflict', 'Turn off your own two-factor sign-in on Your profile, with a code from your app or a recovery code'),
  twoFactorRequireNeedsYours: entry('conflict', 'Set up two-factor sign-in for yourself first: everyone, you included, will need it'),
  twoFactorChallengeExpired: entry('unauthenticated', 'Your sign-in has expired. Sign in again.'),
  signInThrottled: entry('too_many_requests', (wait: string) => `Too many failed sign-ins. Try again in ${wait}.`),
  passwordTooShort: entry('invalid', 'Passwords must be at least 12 characters'),
  passwordTooLong: entry('invalid', 'Passwords must be at most 256 characters'),
  passwordsDoNotMatch: entry('invalid', 'The two passwords do not match'),
  currentPasswordWrong: entry('invalid', 'Your current password is not correct'),
  linkInvalid: entry('invalid', 'This link is invalid, already used or expired. Ask for a new one.'),
  emailInvalid: entry('invalid', 'Enter a valid email address'),
  emailTaken: entry('conflict', 'A user with this email already exists'),
  nameTooLong: entry('invalid', 'Names must be at most 100 characters'),
  // Auto-recharge and the low-balance warning (the Billing page)
  balanceSettingOutOfRange: entry('invalid', (field: string, min: number, max: number) => `${field} must be a whole number from ${min} to ${max}`),
  // Adding a card (the Billing page): a test card number with the simulated provider, a PaymentMethod id with Stripe
  cardNumberRequired: entry('invalid', 'Enter a test card number'),
  paymentMethodRequired: entry('invalid', 'Enter the payment method id (it starts with pm_)'),
  // Sign-up (the public page)
  signUpClosed: entry('not_found', 'Sign-up is not open on this service. Ask its operator for an account.'),
  signUpThrottled: entry('too_many_requests', (minutes: number) => `Too many sign-ups from this connection. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`),
  signUpNameRequired: entry('invalid', 'Enter your name'),
  signUpBusinessNameRequired: entry('invalid', 'Enter the name of your business'),
  signUpBusinessNameTooLong: entry('invalid', 'Business names must be at most 100 characters'),
  // Going live (the Go live page and the operator's account:approve / account:decline)
  liveBusinessNameRequired: entry('invalid', 'Enter the legal name of your business'),
  liveBusinessNameTooLong: entry('invalid', 'Business names must be at most 200 characters'),
  liveAbnRequired: entry('invalid', 'Enter your ABN'),
  liveAbnFormat: entry('invalid', 'An ABN is 11 digits, such as 51 824 753 556'),
  liveAbnChecksum: entry('invalid', 'That is not a valid ABN: its check digits do not match. Check it and try again.'),
  liveWebsiteInvalid: entry('invalid', 'Enter your website as an address such as https://www.example.com.au, or leave it empty'),
  liveUseRequired: entry('invalid', 'Say what you will send, to whom, and about how many messages a month'),
  liveUseTooLong: entry('invalid', 'The intended use must be at most 1000 characters'),
  liveRequestPending: entry('conflict', 'Your request for a live account is already waiting for review'),
  accountAlreadyLive: entry('conflict', 'This account is already live'),
  liveRequestNotFound: entry('not_found', (id: number) => `Live account request ${id} not found`),
  liveRequestAlreadyDecided: entry('conflict', (id: number, state: string) => `Live account request ${id} is already ${state}`),
  accountIsLive: entry('conflict', (accountId: number) => `Account ${accountId} is already live`),
  declineReasonTooLong: entry('invalid', 'The decline reason must be at most 500 characters'),
  unknownPermission: entry('invalid', (value: string, valid: string) => `Unknown permission ${value}. Valid values: ${valid}`),
  userNotFound: entry('not_found', 'User not found'),
  userEmailNotFound: entry('not_found', (email: string) => `No user with email ${email}`),
  ownerOnly: entry('forbidden', 'Only the account owner can do this'),
  permissionRequired: entry('forbidden', 'You do not have permission to do this'),
  ownerCannotBeRemoved: entry('conflict', 'The owner cannot be removed; transfer ownership to another user first'),
  ownerPermissionsFixed: entry('conflict', 'The owner can do everything; their permissions cannot be changed'),
  ownershipToSelf: entry('conflict', 'You already own this account'),
  ownershipNeedsPassword: entry('conflict', 'Ownership can only go to a user who has set a password'),
  accountHasOwner: entry('conflict', (accountId: number) => `Account ${accountId} already has an owner`),
  accountHasNoOwner: entry('conflict', (accountId: number) => `Account ${accountId} has no owner yet; create the owner first with --owner`),
  apiKeyNotFoundOnAccount: entry('not_found', 'API key not found'),
  apiKeyLabelTooLong: entry('invalid', 'Labels must be at most 100 characters'),
  purchasesEnableNeedsBilling: entry('forbidden', 'Only users who can manage billing can enable purchases'),
  dailyLimitRaiseNeedsBilling: entry('forbidden', 'Only users who can manage billing can raise a daily limit'),
  dailyLimitInvalid: entry('invalid', 'The daily limit must be an amount in dollars, such as 500 or 250.50, up to 1000000'),
  // Sender identity: own mobile, removal (supplement: Senders, Own mobile as sender)
  senderLabelTooLong: entry('invalid', 'label must be at most 100 characters'),
  senderAlreadyActive: entry('conflict', 'This number is already an active sender on this account'),
  confirmationsThrottled: entry(
    'too_many_requests',
    (minutes: number) => `Too many confirmation messages to this number: at most 3 an hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  ),
  confirmationBudgetSpent: entry(
    'too_many_requests',
    (scope: 'account' | 'key' | 'address', minutes: number) =>
      `Too many confirmation messages requested ${{ account: 'by this account', key: 'with this API key', address: 'from this address' }[scope]}. Try again in ${waitWords(minutes)}.`,
  ),
  senderLinkInvalid: entry('invalid', 'This confirmation link is invalid, already used or expired. Register the number again to get a new link.'),
  senderNotFound: entry('not_found', 'Sender not found'),
  dedicatedSenderNotRemovable: entry('conflict', 'Dedicated numbers cannot be removed: a dedicated number ends with its subscription'),
  sharedSenderNotRemovable: entry('conflict', 'Shared numbers are assigned by us and cannot be removed'),
  // Operator paths only (account:create, sender:add): replies to a number go to the accounts it is active on, so
  // a dedicated number is active on one account and is no other account's shared number (inbound routing).
  receivingNumberTaken: entry(
    'conflict',
    (number: string, accountId: number, type: string) =>
      `${number} is already an active ${type} sender on account ${accountId}; a dedicated number belongs to one account at a time (remove it there first)`,
  ),
  receivingNumberAssigned: entry(
    'conflict',
    (number: string, accountId: number) => `${number} is assigned to account ${accountId} in the dedicated number inventory; a dedicated number belongs to one account at a time`,
  ),
  // ACMA Sender ID registrations (supplement: Sender ID registration)
  senderIdLength: entry('invalid', 'sender must be 3 to 11 characters'),
  senderIdCharacters: entry('invalid', 'sender may contain only letters, digits and spaces'),
  senderIdNeedsLetter: entry('invalid', 'sender must contain at least one letter'),
  abnNotDigits: entry('invalid', 'abn must contain only digits'),
  abnLength: entry('invalid', 'abn must be 11 digits'),
  abnChecksum: entry('invalid', 'abn is not a valid ABN: its check digits do not match'),
  businessNameTooLong: entry('invalid', 'business_name must be at most 200 characters'),
  registrationReasonTooLong: entry('invalid', 'reason must be at most 1000 characters'),
  senderIdReserved: entry('conflict', 'This Sender ID is reserved'),
  senderIdAlreadyActive: entry('conflict', 'This Sender ID is already active on this account'),
  senderIdAwaitingReview: entry('conflict', 'This Sender ID already has a registration awaiting review'),
  senderIdRegisteredElsewhere: entry('conflict', 'This Sender ID is already registered by another account'),
  invalidRegistrationState: entry('invalid', 'Invalid state filter. Valid values: submitted, approved, rejected'),
  registrationNotFound: entry('not_found', (id: number) => `Registration ${id} not found`),
  registrationAlreadyDecided: entry('conflict', (id: number, state: string) => `Registration ${id} is already ${state}`),
  rejectionReasonTooLong: entry('invalid', 'The rejection reason must be at most 500 characters'),
  // The free dedicated number and the number inventory (supplement: Purchases)
  serviceAddressType: entry('invalid', 'service_address must be a string or an object'),
  serviceAddressTooLong: entry('invalid', 'service_address must be at most 200 characters'),
  serviceAddressStreet: entry('invalid', 'service_address must include a street address'),
  serviceAddressState: entry('invalid', 'service_address must include a state or territory: NSW, VIC, QLD, WA, SA, TAS, ACT or NT'),
  serviceAddressPostcode: entry('invalid', 'service_address must include a 4-digit postcode'),
  freeNumberAlreadyClaimed: entry('conflict', 'The free dedicated number has already been claimed for this account'),
  noDedicatedNumberAvailable: entry('conflict', 'No dedicated number is available right now. Please try again later or contact support.'),
  numbersCsvInvalid: entry('invalid', (reason: string) => reason),
  // Payments and purchases (supplement: Purchases)
  idempotencyKeyRequired: entry('invalid', 'Idempotency-Key header is required'),
  purchasesNotEnabled: entry('forbidden', 'Purchases are not enabled for this API key'),
  dailyLimitExceeded: entry('forbidden', (remaining: string) => `Daily purchase limit exceeded: $${remaining} remaining`),
  cardLast4Required: entry('invalid', 'card_last4 is required when more than one card is saved'),
  noCardEndsIn: entry('invalid', (last4: string) => `No saved card ends in ${last4}`),
  noSavedCard: entry('invalid', 'No saved card on this account'),
  paymentDeclined: entry('payment_required', 'Payment declined'),
  freeNumberFirst: entry('forbidden', 'Claim your free dedicated number first'),
  cardLast4Invalid: entry('invalid', 'card_last4 must be 4 digits'),
  creditsNotWhole: entry('invalid', 'credits must be a whole number'),
  creditsBelowMinimum: entry('invalid', 'The minimum purchase is 500 credits'),
  creditsAboveMaximum: entry('invalid', 'The maximum purchase is 10000000 credits'),
  numberNotAvailable: entry('conflict', 'This number is not available'),
  containsInvalid: entry('invalid', 'contains must be up to 11 digits'),
  cardNotFound: entry('not_found', 'Card not found'),
  notATestCard: entry('invalid', (cards: string) => `Not a test card of the simulated payment provider. Use one of: ${cards}`),
  cardRejected: entry('invalid', (reason: string) => `The card was not saved: ${reason}`),
  testCardsNeedSimulatedProvider: entry('conflict', 'Test cards are for the simulated payment provider only; a real payment provider is configured'),
  purchaseNotFound: entry('not_found', (id: number) => `Purchase ${id} not found`),
  purchaseNotHeld: entry('conflict', (id: number, state: string) => `Purchase ${id} is ${state}, not held for review`),
  billingEmailInvalid: entry('invalid', 'Enter a valid email address, or leave it empty to email the owner'),
  invoiceNotFound: entry('not_found', 'Invoice not found'),
  // The dashboard's time zone, send, campaign and report pages
  timeZoneInvalid: entry('invalid', 'Choose one of the Australian time zones listed'),
  composeNumbersRequired: entry('invalid', 'Enter at least one mobile number'),
  composeTooManyNumbers: entry('invalid', (max: number) => `At most ${max} numbers per send; put more in a list and send to the list`),
  composeListRequired: entry('invalid', 'Choose a list to send to'),
  // The dashboard's own words for an empty field (the API's `<field> is required` names its wire field).
  pageMessageRequired: entry('invalid', 'Enter a message'),
  pageKeywordRequired: entry('invalid', 'Enter a keyword'),
  composeScheduleInvalid: entry('invalid', 'Enter the day and time to send, such as 2026-12-01 and 09:30'),
  composeScheduleSkipped: entry('invalid', (zone: string) => `That time does not exist in ${zone}: clocks skip that hour when daylight saving starts. Choose another time.`),
  composeSchedulePast: entry('invalid', 'That time has passed. Choose a later time, or send now.'),
  composeNothingToSend: entry('invalid', 'None of these recipients can be sent this message; see the reasons below.'),
  composeTestMobileUnknown: entry('invalid', 'A test goes only to a mobile you verified yourself; choose one of yours'),
  composeTestRefused: entry('invalid', (reason: string) => `The test cannot be sent to your mobile: ${reason}`),
  messageIdInvalid: entry('invalid', 'That is not a message ID. A message ID looks like 3f2b9c1e-7a4d-4e0b-9c55-1d2e3f4a5b6c; copy it from the message.'),
  reportPeriodOrder: entry('invalid', 'The first day must not be after the last day'),
  reportPeriodTooLong: entry('invalid', (days: number) => `A report covers at most ${days} days; choose a shorter period`),
  composeFixRecipients: entry('invalid', 'Some recipients cannot be sent this message; fix or remove them (see below) and try again.'),
  // Idempotency
  idempotencyKeyTooLong: entry('invalid', 'Idempotency-Key must be at most 255 characters'),
  idempotencyKeyReused: entry('unprocessable', 'Idempotency-Key was reused with a different request payload'),
  // Carriers and routes (operator CLI: docs/carriers.md). A bad value is a CarrierSettingsError (a usage error); these are not.
  carrierNotFound: entry('not_found', (name: string) => `no carrier named ${name}`),
  routeCarrierNotFound: entry('not_found', (name: string) => `no carrier named ${name} (carrier:list; the SMPP_* carrier is env)`),
  routeNotFound: entry('not_found', (id: number) => `no route with id ${id}`),
  carrierNameTaken: entry('conflict', (name: string) => `a carrier named ${name} already exists`),
  carrierRouted: entry('conflict', (name: string, routes: string) => `carrier ${name} is named by route(s) ${routes}: remove it from them (route:remove) first`),
} as const;

export type Condition = keyof typeof CATALOGUE;
type TextOf<C extends Condition> = (typeof CATALOGUE)[C]['text'];
type ArgsOf<C extends Condition> = TextOf<C> extends (...args: infer A) => string ? A : [];

/** The texts alone, for answers that are not thrown (per-message results, documentation). */
export const ErrorText = Object.fromEntries(Object.entries(CATALOGUE).map(([key, e]) => [key, e.text])) as { readonly [C in Condition]: TextOf<C> };

function textOf<C extends Condition>(condition: C, args: ArgsOf<C>): string {
  const text: Text = CATALOGUE[condition].text;
  return typeof text === 'string' ? text : (text as (...a: unknown[]) => string)(...(args as unknown[]));
}

/** The error for a condition: `throw failure('insufficientCredits')`, `throw failure('required', 'list_id')`. */
export function failure<C extends Condition>(condition: C, ...args: ArgsOf<C>): DomainError {
  return new DomainError(condition, CATALOGUE[condition].kind, textOf(condition, args));
}

/** The same, recording the underlying failure (logged with the request, never sent). */
export function failureBecause<C extends Condition>(cause: unknown, condition: C, ...args: ArgsOf<C>): DomainError {
  return new DomainError(condition, CATALOGUE[condition].kind, textOf(condition, args), cause);
}

/** Operator CLI texts (usage errors exit 2). */
export const UsageText = {
  unknownCommand: (name: string, usage: string) => `unknown command ${name}\n${usage}`,
  flagRequired: (flag: string) => `--${flag} is required`,
  flagRepeated: (flag: string) => `--${flag} is given more than once (it takes one value)`,
  flagPositiveInteger: (flag: string) => `--${flag} must be a positive integer`,
  flagCredits: (flag: string, allowZero: boolean) => `--${flag} must be a ${allowZero ? 'non-negative' : 'positive'} number with at most two decimals`,
  flagAmountUpTo: (flag: string, max: string) => `--${flag} must be an amount in dollars with at most two decimals, up to ${max}`,
  flagOneOf: (flag: string, values: readonly string[]) => `--${flag} must be one of ${values.join(', ')}`,
  exactlyOneOf: (a: string, b: string) => `exactly one of --${a} or --${b} is required`,
  cannotReadFile: (file: string, reason: string) => `cannot read --file ${file}: ${reason}`,
  fileNotText: 'it is not UTF-8 text (save it as CSV UTF-8 and try again)',
  flagEmail: (flag: string) => `--${flag} must be an email address`,
  flagBetween: (flag: string, min: number, max: number) => `--${flag} must be a whole number from ${min} to ${max}`,
  flagTooLong: (flag: string, max: number) => `--${flag} must be at most ${max} characters`,
  ownerTakesNoPermission: '--permission does not apply with --owner (the owner can do everything)',
  ledgerViolations: (count: number) => `ledger:verify found ${count} violation(s)`,
  complianceViolations: (count: number) => `compliance:verify found ${count} violation(s)`,
  databaseNotMigrated: (database: string) => `database ${database} does not exist or was never migrated: run db:migrate first`,
  migrationsPending: (count: number) => `the database schema is older than this build (${count} migration(s) pending): run db:migrate first`,
} as const;

/** `ledger:verify` findings, one text per check (amounts in credits with two decimals). */
export const LedgerViolationText = {
  balance: (balance: string, ledgerTotal: string) => `balance ${balance} but the ledger sums to ${ledgerTotal}`,
  sendDebit: (sendId: number, debits: number, debited: string, expected: string) =>
    `send ${sendId} debited ${debits} time(s) for ${debited} but its messages cost ${expected} (debited once, or never for a test send or one that costs nothing)`,
  sendTotal: (sendId: number, total: string, messagesCost: string) => `send ${sendId} records total_cost ${total} but its messages cost ${messagesCost}`,
  orphanDebit: (ledgerEntryId: number, reference: string) => `debit ${ledgerEntryId} (${reference || 'no reference'}) pays for no send of this account`,
  refundLines: (ledgerEntryId: number, amount: string, linesTotal: string) => `refund ${ledgerEntryId} of ${amount} names messages costing ${linesTotal}`,
  refundOfWrongMessage: (ledgerEntryId: number, messageId: string, why: string) => `refund ${ledgerEntryId} pays back message ${messageId}, which ${why}`,
  refundedAndSubmitted: (messageId: string, parts: number) => `message ${messageId} was refunded and also submitted (${parts} part(s))`,
  cancelledNotRefunded: (messageId: string, cost: string) => `message ${messageId} was cancelled but its ${cost} credits were never refunded`,
} as const;

/** `compliance:verify` findings, one text per check (times in UTC). */
export const ComplianceViolationText = {
  claimedAfterOptOut: (messageId: string, number: string, optedOutAt: string, at: string) =>
    `message ${messageId} to ${number} was claimed for dispatch after ${number} opted out at ${optedOutAt} (due and accepted by ${at}; its send did not ignore unsubscribes)`,
  listRecipientOptedOut: (sendId: number, messageId: string, number: string, optedOutAt: string) =>
    `list send ${sendId} addressed message ${messageId} to ${number}, opted out since ${optedOutAt}`,
} as const;

/** What the OpenAPI document says of each error status. */
export const StatusDescription: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or wrong credentials',
  402: 'Payment declined',
  403: 'Not permitted',
  404: 'Not found',
  405: 'Method not allowed for this path',
  408: CATALOGUE.requestTimeout.text,
  409: 'Conflict',
  413: CATALOGUE.bodyTooLarge.text,
  414: CATALOGUE.urlTooLong.text,
  415: CATALOGUE.unsupportedMediaType.text,
  422: 'Idempotency-Key reused with a different body',
  429: 'Too many concurrent requests',
  431: CATALOGUE.headersTooLarge.text,
  500: 'Failed, nothing changed',
  503: 'A dependency is unavailable; retry after Retry-After seconds',
};

/** Headings of the HTML error pages, by status (the text under them is the error's own). */
export const PageErrorTitle: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Page not found',
  405: 'Not allowed here',
  409: 'That did not work',
  413: 'Too much data',
  415: 'Unsupported form',
  422: 'That did not work',
  429: 'Too many attempts',
  500: 'Something went wrong',
  503: 'Temporarily unavailable',
};

/** Texts of the HTML error pages where the error's own text is not for people (unknown paths, our failures). */
export const PageErrorText = {
  notFound: 'There is no page at this address. Check the link, or go back to the overview.',
  linkNotFound: 'This link is not valid, or it has expired. Check that it was copied in full.',
  internal: 'We could not finish this. Nothing was changed; please try again in a moment.',
  requestId: 'Reference',
} as const;

/** /health's 503. */
export const HealthDownDescription = 'PostgreSQL or Redis is down';
