/** `YYYY-MM-DD HH:MM:SS` in UTC, the interface's timestamp form. */
export function formatUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The moment an interface timestamp (formatUtc's `YYYY-MM-DD HH:MM:SS`, UTC) names. */
export function parseUtcTimestamp(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

function localFormat(timeZone: string): Intl.DateTimeFormat {
  let format = localFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-AU', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    localFormats.set(timeZone, format);
  }
  return format;
}

/**
 * `YYYY-MM-DD HH:MM:SS` in an IANA zone, and the zone's abbreviation at that moment (AEDT, AEST, ACST,
 * AWST...): how pages and exports show time to people, who read it in their account's zone. The API
 * keeps formatUtc.
 */
export function formatLocalParts(date: Date, timeZone: string): { text: string; zone: string } {
  const part: Record<string, string> = {};
  for (const { type, value } of localFormat(timeZone).formatToParts(date)) part[type] = value;
  return { text: `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`, zone: part.timeZoneName };
}

/** `YYYY-MM-DD HH:MM:SS AEDT`: a moment as a person in `timeZone` reads it. */
export function formatLocal(date: Date, timeZone: string): string {
  const { text, zone } = formatLocalParts(date, timeZone);
  return `${text} ${zone}`;
}
