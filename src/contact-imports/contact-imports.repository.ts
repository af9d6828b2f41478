import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { ContactImportOrigin, ContactImportState } from './contact-import.entity';

export interface ImportProblemLists {
  invalid: Array<{ line: number; reason: string }>;
  duplicates: Array<{ line: number; number: string; first_line: number }>;
  opted_out: Array<{ line: number; number: string }>;
}

/** An import as its report shows it (never the file). */
export interface ContactImportRow extends ImportProblemLists {
  id: number;
  list_id: number | null;
  list_name: string | null;
  state: ContactImportState;
  origin: ContactImportOrigin;
  file_name: string;
  total_rows: number;
  valid_rows: number;
  processed_rows: number;
  added: number;
  updated: number;
  added_to_list: number;
  failure: string | null;
  attempts: number;
  consent_source: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** What a worker needs to run an import. */
export interface ContactImportWork {
  state: ContactImportState;
  list_id: number | null;
  csv: string;
  mapping: Record<string, string> | null;
  attempts: number;
  last_error: string | null;
  consent_source: string | null;
  api_key_id: number | null;
  user_id: number | null;
}

/** Who started an import and what they said about consent (stored with it: the evidence its consent records name). */
export interface ImportStatement {
  consentSource: string | null;
  apiKeyId: number | null;
  userId: number | null;
}

const REPORT_COLUMNS = `i.id::int AS id, i.list_id::int AS list_id, l.name AS list_name, i.state, i.origin, i.file_name, i.total_rows, i.valid_rows,
  i.processed_rows, i.added, i.updated, i.added_to_list, i.failure, i.attempts, i.consent_source, i.created_at, i.finished_at, i.invalid, i.duplicates, i.opted_out`;

@Injectable()
export class ContactImportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    accountId: number,
    values: { state: 'draft' | 'queued'; origin: ContactImportOrigin; listId: number | null; fileName: string; csv: string; mapping: object | null } & ImportStatement,
    tx?: Tx,
  ): Promise<number> {
    const { rows } = await sql<{ id: number }>(
      tx ?? this.dataSource,
      `INSERT INTO contact_imports (account_id, state, origin, list_id, file_name, csv, mapping, consent_source, api_key_id, user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10) RETURNING id::int AS id`,
      [
        accountId,
        values.state,
        values.origin,
        values.listId,
        values.fileName,
        values.csv,
        values.mapping === null ? null : JSON.stringify(values.mapping),
        values.consentSource,
        values.apiKeyId,
        values.userId,
      ],
    );
    return rows[0].id;
  }

  async findReport(accountId: number, importId: number): Promise<ContactImportRow | null> {
    const { rows } = await sql<ContactImportRow>(
      this.dataSource,
      `SELECT ${REPORT_COLUMNS} FROM contact_imports i LEFT JOIN contact_lists l ON l.id = i.list_id WHERE i.account_id = $1 AND i.id = $2`,
      [accountId, importId],
    );
    return rows[0] ?? null;
  }

  /** The newest imports of the account (their reports without the line lists). */
  async recent(accountId: number, limit: number): Promise<ContactImportRow[]> {
    const { rows } = await sql<ContactImportRow>(
      this.dataSource,
      `SELECT ${REPORT_COLUMNS.replace(', i.invalid, i.duplicates, i.opted_out', `, '[]'::jsonb AS invalid, '[]'::jsonb AS duplicates, '[]'::jsonb AS opted_out`)}
         FROM contact_imports i LEFT JOIN contact_lists l ON l.id = i.list_id
        WHERE i.account_id = $1 AND i.state <> 'draft' ORDER BY i.id DESC LIMIT $2`,
      [accountId, limit],
    );
    return rows;
  }

  /** The file of an import still in draft (the page's preview and mapping), or null. */
  async findDraftCsv(accountId: number, importId: number): Promise<{ csv: string; file_name: string } | null> {
    const { rows } = await sql<{ csv: string; file_name: string }>(
      this.dataSource,
      `SELECT csv, file_name FROM contact_imports WHERE account_id = $1 AND id = $2 AND state = 'draft'`,
      [accountId, importId],
    );
    return rows[0] ?? null;
  }

  /** draft → queued with the chosen mapping and list; false when it is no longer a draft (started twice). */
  async queueDraft(
    accountId: number,
    importId: number,
    start: { mapping: object; listId: number | null; consentSource: string | null; userId: number | null },
    tx: Tx,
  ): Promise<boolean> {
    const { rowCount } = await sql(
      tx,
      `UPDATE contact_imports SET state = 'queued', mapping = $3::jsonb, list_id = $4, consent_source = $5, user_id = $6, updated_at = now()
        WHERE account_id = $1 AND id = $2 AND state = 'draft'`,
      [accountId, importId, JSON.stringify(start.mapping), start.listId, start.consentSource, start.userId],
    );
    return rowCount > 0;
  }

  async findWork(accountId: number, importId: number): Promise<ContactImportWork | null> {
    const { rows } = await sql<ContactImportWork>(
      this.dataSource,
      `SELECT state, list_id::int AS list_id, csv, mapping, attempts, last_error, consent_source, api_key_id, user_id FROM contact_imports WHERE account_id = $1 AND id = $2`,
      [accountId, importId],
    );
    return rows[0] ?? null;
  }

  /** Counts a run as it starts (before any work, so a run that crashes its worker is counted); false when the import is finished. */
  async startAttempt(accountId: number, importId: number): Promise<boolean> {
    const { rowCount } = await sql(
      this.dataSource,
      `UPDATE contact_imports SET attempts = attempts + 1, updated_at = now() WHERE account_id = $1 AND id = $2 AND state IN ('queued', 'running')`,
      [accountId, importId],
    );
    return rowCount > 0;
  }

  async recordError(accountId: number, importId: number, message: string): Promise<void> {
    await sql(this.dataSource, `UPDATE contact_imports SET last_error = $3, updated_at = now() WHERE account_id = $1 AND id = $2`, [accountId, importId, message]);
  }

  /**
   * The retention: finished imports (report and line lists) once `retentionDays` have passed since they
   * finished, and drafts never started after `draftHours`, each with whatever file it still holds.
   * Deletes at most `limit` rows a call (the purge calls again while a call fills it).
   */
  async purge(retentionDays: number, draftHours: number, limit: number): Promise<number> {
    const { rowCount } = await sql(
      this.dataSource,
      `DELETE FROM contact_imports WHERE id IN (
         SELECT id FROM contact_imports WHERE finished_at < now() - make_interval(days => $1) AND state IN ('complete', 'failed')
         UNION ALL
         SELECT id FROM contact_imports WHERE state = 'draft' AND created_at < now() - make_interval(hours => $2)
         LIMIT $3)`,
      [retentionDays, draftHours, limit],
    );
    return rowCount;
  }

  /** queued → running with the file's counts and the lines set aside; false when another worker began it first. */
  async begin(
    accountId: number,
    importId: number,
    counts: { totalRows: number; validRows: number },
    problems: Pick<ImportProblemLists, 'invalid' | 'duplicates'>,
  ): Promise<boolean> {
    const { rowCount } = await sql(
      this.dataSource,
      `UPDATE contact_imports SET state = 'running', total_rows = $3, valid_rows = $4, invalid = $5::jsonb, duplicates = $6::jsonb, updated_at = now()
        WHERE account_id = $1 AND id = $2 AND state = 'queued'`,
      [accountId, importId, counts.totalRows, counts.validRows, JSON.stringify(problems.invalid), JSON.stringify(problems.duplicates)],
    );
    return rowCount > 0;
  }

  /**
   * Holds the import for one chunk's transaction and answers where it stands: a second worker running
   * the same import (a stalled job handed out again) waits here, then sees the rows already written.
   */
  async lockProgress(accountId: number, importId: number, tx: Tx): Promise<{ state: ContactImportState; processed_rows: number; list_id: number | null } | null> {
    const { rows } = await sql<{ state: ContactImportState; processed_rows: number; list_id: number | null }>(
      tx,
      `SELECT state, processed_rows, list_id::int AS list_id FROM contact_imports WHERE account_id = $1 AND id = $2 FOR UPDATE`,
      [accountId, importId],
    );
    return rows[0] ?? null;
  }

  async recordChunk(
    accountId: number,
    importId: number,
    chunk: { processedRows: number; added: number; updated: number; addedToList: number; optedOut: Array<{ line: number; number: string }> },
    tx: Tx,
  ): Promise<void> {
    await sql(
      tx,
      `UPDATE contact_imports SET processed_rows = $3, added = added + $4, updated = updated + $5, added_to_list = added_to_list + $6,
              opted_out = opted_out || $7::jsonb, updated_at = now()
        WHERE account_id = $1 AND id = $2`,
      [accountId, importId, chunk.processedRows, chunk.added, chunk.updated, chunk.addedToList, JSON.stringify(chunk.optedOut)],
    );
  }

  /** running → complete, or queued/running → failed with its reason; the file is no longer needed either way. */
  async finish(accountId: number, importId: number, outcome: { state: 'complete' } | { state: 'failed'; failure: string }, tx?: Tx): Promise<void> {
    await sql(
      tx ?? this.dataSource,
      `UPDATE contact_imports SET state = $3, failure = $4, csv = '', finished_at = now(), updated_at = now()
        WHERE account_id = $1 AND id = $2 AND state IN ('queued', 'running')`,
      [accountId, importId, outcome.state, outcome.state === 'failed' ? outcome.failure : null],
    );
  }

  /** Imports a worker should be running (the sweep re-enqueues them; a job already queued is not added twice). */
  async unfinished(limit: number): Promise<Array<{ account_id: number; id: number }>> {
    const { rows } = await sql<{ account_id: number; id: number }>(
      this.dataSource,
      `SELECT account_id, id::int AS id FROM contact_imports WHERE state IN ('queued', 'running') ORDER BY id LIMIT $1`,
      [limit],
    );
    return rows;
  }
}
