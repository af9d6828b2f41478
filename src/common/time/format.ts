/** `YYYY-MM-DD HH:MM:SS` in UTC, the interface's timestamp form. */
export function formatUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
