import { csvText } from '../common/csv/csv-cell';
import { formatUtc } from '../common/time/format';
import type { ConsentRow } from './consent.repository';

export const toConsentView = (r: ConsentRow) => ({
  number: r.number,
  change: r.change,
  source: r.source,
  recorded_at: formatUtc(r.recorded_at),
  inbound_message_id: r.inbound_message_id,
  message_id: r.message_id,
  client_address: r.client_address,
  api_key_id: r.api_key_id,
  user_id: r.user_id,
  detail: r.detail,
});

export type ConsentView = ReturnType<typeof toConsentView>;

const CSV_COLUMNS = ['number', 'change', 'source', 'recorded_at', 'inbound_message_id', 'message_id', 'client_address', 'api_key_id', 'user_id', 'detail'] as const;

/** One CSV field, never a formula when a spreadsheet opens it (the detail holds what people wrote). */
const csvCell = (value: string | number | null) => csvText(value === null ? null : String(value));

/** The records as CSV with a header line, times in UTC as the API shows them. */
export function consentCsv(rows: ConsentRow[]): string {
  const lines = rows.map((r) => {
    const view = toConsentView(r);
    return CSV_COLUMNS.map((c) => csvCell(view[c])).join(',');
  });
  return [CSV_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}
