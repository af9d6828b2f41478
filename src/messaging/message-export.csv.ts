import { csvField, csvText } from '../common/csv/csv-cell';
import { LocalClock } from '../common/time/local-time';
import type { ExportRow } from './message-export.repository';

export const EXPORT_HEADER = [
  'message_id',
  'send_id',
  'requested_at',
  'scheduled_for',
  'to',
  'sender',
  'message',
  'status',
  'failure_reason',
  'encoding',
  'parts',
  'cost',
  'custom_ref',
];

/** Hundredths as credits with two decimals, from PostgreSQL's bigint text (no float on the way). */
export function creditsText(hundredths: string): string {
  const negative = hundredths.startsWith('-');
  const digits = (negative ? hundredths.slice(1) : hundredths).padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Writes rows as CSV lines, times in the account's zone (as every page shows them), the API's wire values otherwise. */
export class ExportCsvWriter {
  private readonly requested: LocalClock;
  private readonly scheduled: LocalClock;

  constructor(timeZone: string) {
    this.requested = new LocalClock(timeZone);
    this.scheduled = new LocalClock(timeZone);
  }

  header(): string {
    return `${EXPORT_HEADER.join(',')}\r\n`;
  }

  lines(rows: ExportRow[]): string {
    let out = '';
    for (const r of rows) {
      out += `${r.id},${r.send_id},${this.requested.format(r.created_at)},${r.scheduled_for ? this.scheduled.format(r.scheduled_for) : ''},${r.to_number},${csvText(r.sender)},${csvText(r.body)},${r.status},${csvField(r.failure ?? '')},${r.encoding},${r.parts},${creditsText(r.cost)},${csvText(r.custom_ref)}\r\n`;
    }
    return out;
  }
}
