import { formatUtc } from '../common/time/format';
import type { ContactImportRow } from './contact-imports.repository';

/** An import's state and report on the wire (GET /v1/contact-imports/{import_id}). */
export interface ContactImportView {
  status: 'complete';
  import_id: number;
  state: ContactImportRow['state'];
  list_id: number | null;
  total_rows: number;
  valid_rows: number;
  processed_rows: number;
  added: number;
  updated: number;
  added_to_list: number;
  skipped_invalid: number;
  skipped_duplicates: number;
  opted_out_count: number;
  invalid: ContactImportRow['invalid'];
  duplicates: ContactImportRow['duplicates'];
  opted_out: ContactImportRow['opted_out'];
  failure: string | null;
  attempts: number;
  consent_source: string | null;
  created_at: string;
  finished_at: string | null;
}

export function toContactImportView(row: ContactImportRow): ContactImportView {
  return {
    status: 'complete',
    import_id: row.id,
    state: row.state,
    list_id: row.list_id,
    total_rows: row.total_rows,
    valid_rows: row.valid_rows,
    processed_rows: row.processed_rows,
    added: row.added,
    updated: row.updated,
    added_to_list: row.added_to_list,
    skipped_invalid: row.invalid.length,
    skipped_duplicates: row.duplicates.length,
    opted_out_count: row.opted_out.length,
    invalid: row.invalid,
    duplicates: row.duplicates,
    opted_out: row.opted_out,
    failure: row.failure,
    attempts: row.attempts,
    consent_source: row.consent_source,
    created_at: formatUtc(row.created_at),
    finished_at: row.finished_at ? formatUtc(row.finished_at) : null,
  };
}

/** The operator CLI's report of an import it ran (contacts:import): the list by name, the lines set aside. */
export function toOperatorImportReport(accountId: number, row: ContactImportRow) {
  return {
    account_id: accountId,
    import_id: row.id,
    state: row.state,
    list_id: row.list_id,
    list_name: row.list_name,
    rows: row.total_rows,
    added: row.added,
    updated: row.updated,
    added_to_list: row.added_to_list,
    skipped_invalid: row.invalid.length,
    skipped_duplicates: row.duplicates.length,
    opted_out_count: row.opted_out.length,
    invalid: row.invalid,
    duplicates: row.duplicates,
    opted_out: row.opted_out,
    consent_source: row.consent_source,
    failure: row.failure,
  };
}
