import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../common/http/keyset';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';
import { CONTACT_TEXT_FIELDS, ContactRecord, ContactTextField } from './contact-fields';
import { ContactSearch, NUMBER_SEARCH_EXPRESSION, TEXT_SEARCH_EXPRESSION } from './contact-search';

const COLUMNS = `id, number, ${CONTACT_TEXT_FIELDS.join(', ')}`;

/**
 * How many of the account's contacts, newest first from the cursor, a search reads in order before it
 * turns to the trigram indexes: a first window, then (when it held some matches but not a page) a wider
 * one. A common search ("smith") finds its page in the first; one of middling frequency in the second; a
 * rare one ("Kelly-42") finds nothing in the first and takes its few matches from the index at once. The
 * windows decide because PostgreSQL's estimate of a substring's frequency (over the whole table, not one
 * account) cannot be trusted to choose between reading in order and the index: past the windows the
 * matches are known to be sparse (under 1 in 400), so the index's bitmap stays small.
 */
const SEARCH_WINDOWS = [2000, 18_000];
/** A one- or two-character search reads this many contacts per page, and the page says it goes on. */
const SHORT_SEARCH_WINDOW = 20_000;

export interface ContactFilters {
  number?: string;
  text: Partial<Record<ContactTextField, string>>;
}

function stripEdge(row: ContactRecord & { edge: number | null; read: number }): ContactRecord {
  const { edge: _edge, read: _read, ...contact } = row;
  return contact;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

@Injectable()
export class ContactsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async search(accountId: number, filters: ContactFilters, page: Page): Promise<{ total: number; rows: ContactRecord[] }> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (filters.number !== undefined) {
      params.push(filters.number);
      where.push(`number = $${params.length}`);
    }
    for (const [field, value] of Object.entries(filters.text)) {
      params.push(`%${escapeLike(value!)}%`);
      where.push(`${field} ILIKE $${params.length}`);
    }
    const condition = where.join(' AND ');
    const pageParams = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*) AS total FROM contacts WHERE ${condition}`, params),
      // Deferred join: the offset is walked on the (account_id, id) index, then one page of rows is read.
      sql<ContactRecord>(
        this.dataSource,
        `SELECT ${COLUMNS} FROM contacts WHERE id IN (SELECT id FROM contacts WHERE ${condition} ORDER BY id DESC ${pageParams.clause}) ORDER BY id DESC`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /**
   * Up to `limit` of the account's contacts beyond the cursor, in its direction (newest first for older
   * pages), matching the search when there is one. `stoppedAt` is set when a short search (one or two
   * characters: no trigram to look up) read its window without reaching the end: the next page goes on
   * from there.
   */
  async page(accountId: number, search: ContactSearch | null, cursor: KeysetCursor, limit: number): Promise<{ rows: ContactRecord[]; stoppedAt?: number }> {
    const older = cursor.direction === 'older';
    const from = cursor.from ?? (older ? Number.MAX_SAFE_INTEGER : 0);
    const op = older ? '<' : '>';
    // The account as a range and ordered by it: only the (account_id, id) index gives that order, so
    // PostgreSQL cannot walk the primary key instead, past other accounts' newer rows, when one account
    // holds most of the table (its estimate for either walk is then the same).
    const order = older ? 'account_id, id DESC' : 'account_id DESC, id';
    if (!search) {
      const { rows } = await sql<ContactRecord>(
        this.dataSource,
        `SELECT ${COLUMNS} FROM contacts WHERE account_id >= $1 AND account_id <= $1 AND id ${op} $2 ORDER BY ${order} LIMIT $3`,
        [accountId, from, limit],
      );
      return { rows };
    }
    // $3 the text pattern, $4 the digits pattern when the search is a number.
    const patterns = search.digits === null ? [search.text] : [search.text, search.digits];
    const conditions = [`${TEXT_SEARCH_EXPRESSION} LIKE $3`, ...(search.digits === null ? [] : [`${NUMBER_SEARCH_EXPRESSION} LIKE $4`])];
    const matches = `(${conditions.join(' OR ')})`;
    const found: ContactRecord[] = [];
    let edge = from;
    for (const size of search.short ? [SHORT_SEARCH_WINDOW] : SEARCH_WINDOWS) {
      const { rows, read, last } = await this.searchWindow(
        `account_id >= $1 AND account_id <= $1 AND id ${op} $2`,
        order,
        matches,
        [accountId, edge, ...patterns],
        size,
        limit - found.length,
        older,
      );
      found.push(...rows);
      if (found.length >= limit || read < size) return { rows: found };
      edge = last;
      // Nothing at all among the newest: the matches are rare, and the trigram index finds them at once.
      if (rows.length === 0) break;
    }
    if (search.short) return { rows: found, stoppedAt: edge };
    const rest = await this.dataSource.transaction(async (manager) => {
      // Past the windows the matches are sparse: the trigram bitmap is the plan, whatever the estimate.
      await sql(manager, `SELECT set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true)`);
      return sql<ContactRecord>(
        manager,
        `SELECT ${COLUMNS} FROM contacts WHERE account_id = $1 AND id ${op} $2 AND ${matches} ORDER BY id ${older ? 'DESC' : 'ASC'} LIMIT $${3 + patterns.length}`,
        [accountId, edge, ...patterns, limit - found.length],
      );
    });
    return { rows: [...found, ...rest.rows] };
  }

  /** Up to `limit` matches among the next `size` contacts in order, how many were read and the last one's id. */
  private async searchWindow(
    scope: string,
    order: string,
    matches: string,
    params: unknown[],
    size: number,
    limit: number,
    older: boolean,
  ): Promise<{ rows: ContactRecord[]; read: number; last: number }> {
    const { rows } = await sql<ContactRecord & { edge: number | null; read: number }>(
      this.dataSource,
      `WITH w AS MATERIALIZED (SELECT * FROM contacts WHERE ${scope} ORDER BY ${order} LIMIT ${size}),
            edge AS (SELECT count(*)::int AS read, ${older ? 'min' : 'max'}(id) AS edge FROM w)
       SELECT ${COLUMNS}, edge.edge, edge.read FROM edge LEFT JOIN LATERAL (SELECT * FROM w WHERE ${matches} ORDER BY id ${older ? 'DESC' : 'ASC'} LIMIT $${params.length + 1}) m ON true`,
      [...params, limit],
    );
    return { rows: rows.filter((r) => r.id !== null).map(stripEdge), read: rows[0].read, last: rows[0].edge ?? 0 };
  }

  /** How many contacts the account holds, counted up to `cap` (a million-contact account is not counted on every page). */
  async countUpTo(accountId: number, cap: number): Promise<number> {
    const { rows } = await sql<{ n: number }>(this.dataSource, `SELECT count(*)::int AS n FROM (SELECT 1 FROM contacts WHERE account_id = $1 LIMIT $2) c`, [accountId, cap]);
    return rows[0].n;
  }

  async findById(accountId: number, contactId: number, tx?: Tx): Promise<ContactRecord | null> {
    const { rows } = await sql<ContactRecord>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM contacts WHERE account_id = $1 AND id = $2`, [accountId, contactId]);
    return rows[0] ?? null;
  }

  /** The contact supplying a number's fields: the most recently updated one when duplicates exist. */
  async findLatestByNumber(accountId: number, number: string, tx?: Tx): Promise<ContactRecord | null> {
    const { rows } = await sql<ContactRecord>(
      tx ?? this.dataSource,
      `SELECT ${COLUMNS} FROM contacts WHERE account_id = $1 AND number = $2 ORDER BY updated_at DESC, id DESC LIMIT 1`,
      [accountId, number],
    );
    return rows[0] ?? null;
  }

  /** Fields of the contact for each number (the most recently updated one when duplicates exist), in one query. */
  async findLatestByNumbers(accountId: number, numbers: string[]): Promise<ContactRecord[]> {
    if (numbers.length === 0) return [];
    const { rows } = await sql<ContactRecord>(
      this.dataSource,
      `SELECT DISTINCT ON (number) ${COLUMNS} FROM contacts WHERE account_id = $1 AND number = ANY($2::text[]) ORDER BY number, updated_at DESC, id DESC`,
      [accountId, numbers],
    );
    return rows;
  }

  /**
   * Inserts a contact. Without duplicates allowed the insert is skipped (null) when the number exists:
   * the NOT EXISTS covers older rows made while duplicates were allowed, the unique index covers races.
   */
  async insert(accountId: number, number: string, fields: Record<ContactTextField, string>, allowDuplicates: boolean, tx?: Tx): Promise<number | null> {
    const values = CONTACT_TEXT_FIELDS.map((f) => fields[f]);
    const placeholders = CONTACT_TEXT_FIELDS.map((_, i) => `$${i + 4}`).join(', ');
    const { rows } = await sql<{ id: number }>(
      tx ?? this.dataSource,
      `INSERT INTO contacts (account_id, number, dedupe, ${CONTACT_TEXT_FIELDS.join(', ')})
       SELECT $1, $2, $3, ${placeholders}
        WHERE $3 = false OR NOT EXISTS (SELECT 1 FROM contacts WHERE account_id = $1 AND number = $2)
       ON CONFLICT (account_id, number) WHERE dedupe DO NOTHING
       RETURNING id`,
      [accountId, number, !allowDuplicates, ...values],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Upserts many contacts in one statement (imports): a number the account already has updates its
   * most recently updated contact (only the given columns), a new number inserts a contact. Numbers
   * must be unique within the batch. Returns the ids touched, split into updated and inserted.
   */
  async upsertMany(
    accountId: number,
    rows: Array<{ number: string; fields: Record<ContactTextField, string> }>,
    columns: readonly ContactTextField[],
    allowDuplicates: boolean,
    tx: Tx,
  ): Promise<{ updatedIds: number[]; insertedIds: number[] }> {
    const arrays = CONTACT_TEXT_FIELDS.map((f) => rows.map((r) => r.fields[f]));
    const present = CONTACT_TEXT_FIELDS.map((f) => columns.includes(f));
    const n = CONTACT_TEXT_FIELDS.length;
    const unnestArgs = CONTACT_TEXT_FIELDS.map((_, i) => `$${i + 3}::text[]`).join(', ');
    const presentParam = `$${n + 3}`;
    const dedupeParam = `$${n + 4}`;
    const sets = CONTACT_TEXT_FIELDS.map((f, i) => `${f} = CASE WHEN (${presentParam}::boolean[])[${i + 1}] THEN i.${f} ELSE c.${f} END`).join(', ');
    const { rows: result } = await sql<{ updated_ids: number[] | null; inserted_ids: number[] | null }>(
      tx,
      `WITH input AS (
         SELECT * FROM unnest($2::text[], ${unnestArgs}) WITH ORDINALITY AS t(number, ${CONTACT_TEXT_FIELDS.join(', ')}, ord)
       ), existing AS (
         SELECT DISTINCT ON (c.number) c.id, c.number FROM contacts c JOIN input i ON i.number = c.number
          WHERE c.account_id = $1 ORDER BY c.number, c.updated_at DESC, c.id DESC
       ), updated AS (
         UPDATE contacts c SET ${sets}, updated_at = now()
           FROM existing e JOIN input i ON i.number = e.number
          WHERE c.id = e.id RETURNING c.id
       ), inserted AS (
         INSERT INTO contacts (account_id, number, dedupe, ${CONTACT_TEXT_FIELDS.join(', ')})
         SELECT $1, i.number, ${dedupeParam}, ${CONTACT_TEXT_FIELDS.map((f) => `i.${f}`).join(', ')}
           FROM input i WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.number = i.number) ORDER BY i.ord
         ON CONFLICT (account_id, number) WHERE dedupe DO NOTHING
         RETURNING id
       )
       SELECT (SELECT array_agg(id) FROM updated) AS updated_ids, (SELECT array_agg(id) FROM inserted) AS inserted_ids`,
      [accountId, rows.map((r) => r.number), ...arrays, present, !allowDuplicates],
    );
    return { updatedIds: result[0].updated_ids ?? [], insertedIds: result[0].inserted_ids ?? [] };
  }

  async numberTakenByAnother(accountId: number, number: string, contactId: number): Promise<boolean> {
    const { rows } = await sql(this.dataSource, `SELECT 1 FROM contacts WHERE account_id = $1 AND number = $2 AND id <> $3 LIMIT 1`, [accountId, number, contactId]);
    return rows.length > 0;
  }

  /** Sets the given columns; false when no contact of the account has that id. */
  async update(accountId: number, contactId: number, changes: Partial<Record<'number' | ContactTextField, string>>): Promise<boolean> {
    const entries = Object.entries(changes);
    const sets = entries.map(([column], i) => `${column} = $${i + 3}`);
    const { rowCount } = await sql(this.dataSource, `UPDATE contacts SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE account_id = $1 AND id = $2`, [
      accountId,
      contactId,
      ...entries.map(([, v]) => v),
    ]);
    return rowCount > 0;
  }

  /** Deletes the contact; its list memberships go with it (ON DELETE CASCADE). */
  async delete(accountId: number, contactId: number): Promise<boolean> {
    const { rowCount } = await sql(this.dataSource, `DELETE FROM contacts WHERE account_id = $1 AND id = $2`, [accountId, contactId]);
    return rowCount > 0;
  }
}
