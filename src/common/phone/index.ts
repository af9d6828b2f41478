export { INVALID_PHONE_NUMBER_FORMAT, describeNonMobile, isAuMobile, normaliseAuMobile, normaliseAuMobiles, type NonMobileReason } from './au-mobile';
export { normaliseOrThrow } from './normalise-or-throw';
