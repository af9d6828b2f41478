/**
 * Every error text the API answers with, in one place. Texts are part of the contract
 * (interface.md, Errors; supplement.md, Our decisions and Clarifications): change none without the spec.
 */
export const ErrorText = {
  authenticationRequired: 'Authentication required',
  invalidCredentials: 'Invalid API username or password',
  tooManyConcurrentRequests: 'Too many concurrent requests. Please wait.',
  notFound: 'Not found',
  invalidJson: 'Request body is not valid JSON',
  bodyNotObject: 'Request body must be a JSON object',
  bodyTooLarge: 'Request body is too large',
  unsupportedMediaType: 'Unsupported content type; send application/json',
  badRequest: 'Bad request',
  serviceUnavailable: 'Service temporarily unavailable, please retry',
  internal: 'Internal server error',
  limitOutOfRange: 'limit must be between 1 and 200',
  offsetInvalid: 'offset must be a non-negative integer',
  tooManyApiKeys: 'An account may hold at most 10 API keys',
  invalidPhoneNumber: 'Invalid phone number format',
  duplicateContact: 'This phone number already exists in your contacts',
  contactNotFound: 'Contact not found',
  noFieldsToUpdate: 'No fields provided to update',
  failedToAddContact: 'Failed to add contact',
  listNotFound: 'List not found',
  duplicateListName: 'A list with this name already exists',
  contactOrNumberRequired: 'contact_id or number is required',
  methodNotAllowed: (methods: readonly string[]) => `Invalid request method. Allowed methods: ${methods.join(', ')}`,
  required: (field: string) => `${field} is required`,
  mustBeBoolean: (field: string) => `${field} must be a boolean`,
} as const;
