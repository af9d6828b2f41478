export { GSM7_ESCAPE, GSM7_BASIC_CHARS, GSM7_EXTENSION_CHARS, gsm7CharCost, isGsm7, gsm7Length, gsm7LengthOrNegative, encodeGsm7Unpacked } from './gsm7';
export {
  GSM7_SINGLE_PART_SEPTETS,
  GSM7_MULTIPART_SEPTETS,
  UCS2_SINGLE_PART_UNITS,
  UCS2_MULTIPART_UNITS,
  DEFAULT_MAX_PARTS,
  MIN_MAX_PARTS,
  MAX_MAX_PARTS,
  UNICODE_REQUIRED_MESSAGE,
  chooseEncoding,
  analyseMessage,
  countParts,
  splitParts,
} from './parts';
export type { SmsEncoding, MessageAnalysis } from './parts';
export { CONTACT_PLACEHOLDER_FIELDS, OPTOUT_PLACEHOLDER, compileTemplate, renderTemplate, hasPlaceholders, applyOptout, optoutText } from './template';
export type { ContactField, ContactFields, CompiledTemplate, SenderType } from './template';
