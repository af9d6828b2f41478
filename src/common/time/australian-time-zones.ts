/**
 * The IANA zones of mainland Australia and Tasmania (plus Lord Howe Island), the only zones an account
 * may choose: every recipient is an Australian mobile. Sydney is the default because most of the
 * population lives on eastern time.
 */
export const AUSTRALIAN_TIME_ZONES = [
  'Australia/Sydney',
  'Australia/Melbourne',
  'Australia/Brisbane',
  'Australia/Lindeman',
  'Australia/Hobart',
  'Australia/Adelaide',
  'Australia/Broken_Hill',
  'Australia/Darwin',
  'Australia/Perth',
  'Australia/Eucla',
  'Australia/Lord_Howe',
] as const;
export type AustralianTimeZone = (typeof AUSTRALIAN_TIME_ZONES)[number];

export const DEFAULT_TIME_ZONE: AustralianTimeZone = 'Australia/Sydney';

export function isAustralianTimeZone(value: string): value is AustralianTimeZone {
  return (AUSTRALIAN_TIME_ZONES as readonly string[]).includes(value);
}

/** State and territory codes (as people write them in a contact field) to the zone of their capital. */
export const STATE_TIME_ZONES: Readonly<Record<string, AustralianTimeZone>> = {
  NSW: 'Australia/Sydney',
  ACT: 'Australia/Sydney',
  VIC: 'Australia/Melbourne',
  QLD: 'Australia/Brisbane',
  TAS: 'Australia/Hobart',
  SA: 'Australia/Adelaide',
  NT: 'Australia/Darwin',
  WA: 'Australia/Perth',
};

/** A zone from a state code or a zone name (any case, surrounding spaces ignored), or null when it is neither. */
export function australianTimeZoneOf(text: string): AustralianTimeZone | null {
  const trimmed = text.trim();
  const byState = STATE_TIME_ZONES[trimmed.toUpperCase()];
  if (byState) return byState;
  const byName = AUSTRALIAN_TIME_ZONES.find((zone) => zone.toLowerCase() === trimmed.toLowerCase());
  return byName ?? null;
}
