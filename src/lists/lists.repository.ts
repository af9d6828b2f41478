import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../common/http/keyset';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';
import { CONTACT_TEXT_FIELDS, ContactRecord } from '../contacts/contact-fields';

export interface ListRow {
  id: number;
  name: string;
  createdAt: Date;
  contactCount: number;
}

const CONTACT_COLUMNS = ['c.id', 'c.number', ...CONTACT_TEXT_FIELDS.map((f) => `c.${f}`)].join(', ');

@Injectable()
export class ListsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findAllWithCounts(accountId: number): Promise<ListRow[]> {
    const { rows } = await sql<ListRow>(
      this.dataSource,
      `SELECT l.id, l.name, l.created_at AS "createdAt", (SELECT count(*) FROM list_members m WHERE m.list_id = l.id)::int AS "contactCount"
         FROM contact_lists l WHERE l.account_id = $1 ORDER BY l.id DESC`,
      [accountId],
    );
    return rows;
  }

  /** A page of the account's lists with their member counts, newest first (people page them; the API does not). */
  async pageWithCounts(accountId: number, page: Page): Promise<{ total: number; rows: ListRow[] }> {
    const pageParams = paged([accountId], page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*)::int AS total FROM contact_lists WHERE account_id = $1`, [accountId]),
      sql<ListRow>(
        this.dataSource,
        `SELECT l.id, l.name, l.created_at AS "createdAt", (SELECT count(*) FROM list_members m WHERE m.list_id = l.id)::int AS "contactCount"
           FROM contact_lists l WHERE l.account_id = $1 ORDER BY l.id DESC ${pageParams.clause}`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /** Every list of the account by name (a form's choice of list), without counts. */
  async names(accountId: number): Promise<Array<{ id: number; name: string }>> {
    const { rows } = await sql<{ id: number; name: string }>(this.dataSource, `SELECT id, name FROM contact_lists WHERE account_id = $1 ORDER BY name, id`, [accountId]);
    return rows;
  }

  /** The lists a contact is in, by name. */
  async listsOfContact(accountId: number, contactId: number): Promise<Array<{ id: number; name: string }>> {
    const { rows } = await sql<{ id: number; name: string }>(
      this.dataSource,
      `SELECT l.id, l.name FROM list_members m JOIN contact_lists l ON l.id = m.list_id WHERE m.contact_id = $2 AND l.account_id = $1 ORDER BY l.name, l.id`,
      [accountId, contactId],
    );
    return rows;
  }

  /** Members of a list beyond the cursor, in its direction (newest contact first for older pages). */
  async memberKeysetPage(listId: number, cursor: KeysetCursor, limit: number): Promise<ContactRecord[]> {
    const older = cursor.direction === 'older';
    const from = cursor.from ?? (older ? Number.MAX_SAFE_INTEGER : 0);
    // The list as a range and ordered by it: only the primary key (list_id, contact_id) gives that order,
    // so PostgreSQL cannot walk the contact_id index instead, past every other list's members.
    const { rows } = await sql<ContactRecord>(
      this.dataSource,
      `SELECT ${CONTACT_COLUMNS}
         FROM (SELECT contact_id FROM list_members WHERE list_id >= $1 AND list_id <= $1 AND contact_id ${older ? '<' : '>'} $2
                ORDER BY ${older ? 'list_id DESC, contact_id DESC' : 'list_id, contact_id'} LIMIT $3) m
         JOIN contacts c ON c.id = m.contact_id
        ORDER BY m.contact_id ${older ? 'DESC' : 'ASC'}`,
      [listId, from, limit],
    );
    return rows;
  }

  async memberCount(listId: number): Promise<number> {
    const { rows } = await sql<{ n: number }>(this.dataSource, `SELECT count(*)::int AS n FROM list_members WHERE list_id = $1`, [listId]);
    return rows[0].n;
  }

  async findById(accountId: number, listId: number, tx?: Tx): Promise<{ id: number; name: string } | null> {
    const { rows } = await sql<{ id: number; name: string }>(tx ?? this.dataSource, `SELECT id, name FROM contact_lists WHERE account_id = $1 AND id = $2`, [accountId, listId]);
    return rows[0] ?? null;
  }

  /** Get-or-create in one statement pair; concurrent creators of one name all get the same list. */
  async getOrCreate(accountId: number, name: string, tx?: Tx): Promise<{ id: number; name: string; existing: boolean }> {
    const db = tx ?? this.dataSource;
    const inserted = await sql<{ id: number }>(db, `INSERT INTO contact_lists (account_id, name) VALUES ($1, $2) ON CONFLICT (account_id, name) DO NOTHING RETURNING id`, [
      accountId,
      name,
    ]);
    if (inserted.rows[0]) return { id: inserted.rows[0].id, name, existing: false };
    const { rows } = await sql<{ id: number }>(db, `SELECT id FROM contact_lists WHERE account_id = $1 AND name = $2`, [accountId, name]);
    return { id: rows[0].id, name, existing: true };
  }

  async nameTaken(accountId: number, name: string, exceptListId: number): Promise<boolean> {
    const { rows } = await sql(this.dataSource, `SELECT 1 FROM contact_lists WHERE account_id = $1 AND name = $2 AND id <> $3`, [accountId, name, exceptListId]);
    return rows.length > 0;
  }

  async rename(accountId: number, listId: number, name: string): Promise<boolean> {
    const { rowCount } = await sql(this.dataSource, `UPDATE contact_lists SET name = $3 WHERE account_id = $1 AND id = $2`, [accountId, listId, name]);
    return rowCount > 0;
  }

  /** Deletes the list (memberships cascade) and, when asked, its member contacts; returns how many contacts went. */
  async delete(accountId: number, listId: number, deleteContacts: boolean, tx: Tx): Promise<number | null> {
    let contactsDeleted = 0;
    if (deleteContacts) {
      const res = await sql(tx, `DELETE FROM contacts c USING list_members m WHERE m.list_id = $2 AND c.id = m.contact_id AND c.account_id = $1`, [accountId, listId]);
      contactsDeleted = res.rowCount;
    }
    const { rowCount } = await sql(tx, `DELETE FROM contact_lists WHERE account_id = $1 AND id = $2`, [accountId, listId]);
    return rowCount > 0 ? contactsDeleted : null;
  }

  async memberPage(listId: number, page: Page): Promise<{ total: number; rows: ContactRecord[] }> {
    const pageParams = paged([listId], page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*) AS total FROM list_members WHERE list_id = $1`, [listId]),
      sql<ContactRecord>(
        this.dataSource,
        // Deferred join: the offset walks the membership index only, then one page of contacts is read.
        `SELECT ${CONTACT_COLUMNS}
           FROM (SELECT contact_id FROM list_members WHERE list_id = $1 ORDER BY contact_id DESC ${pageParams.clause}) m
           JOIN contacts c ON c.id = m.contact_id
          ORDER BY m.contact_id DESC`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /** Every member with its fields, in membership order (one query; list sends read whole lists). */
  async membersWithFields(listId: number): Promise<Array<ContactRecord & { updated_at: Date }>> {
    const { rows } = await sql<ContactRecord & { updated_at: Date }>(
      this.dataSource,
      `SELECT ${CONTACT_COLUMNS}, c.updated_at FROM list_members m JOIN contacts c ON c.id = m.contact_id WHERE m.list_id = $1 ORDER BY m.contact_id`,
      [listId],
    );
    return rows;
  }

  async addMember(listId: number, contactId: number, tx?: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx ?? this.dataSource, `INSERT INTO list_members (list_id, contact_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [listId, contactId]);
    return rowCount > 0;
  }

  /** Adds many contacts at once (imports); returns how many were not members yet. */
  async addMembers(listId: number, contactIds: number[], tx: Tx): Promise<number> {
    const { rowCount } = await sql(tx, `INSERT INTO list_members (list_id, contact_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [listId, contactIds]);
    return rowCount;
  }

  async removeMember(listId: number, contactId: number): Promise<boolean> {
    const { rowCount } = await sql(this.dataSource, `DELETE FROM list_members WHERE list_id = $1 AND contact_id = $2`, [listId, contactId]);
    return rowCount > 0;
  }

  /**
   * Adds the number to the account's list in one statement: its most recently updated contact, or a new
   * contact when it has none. False when it was a member already or the list is not the account's.
   */
  async addNumber(accountId: number, listId: number, number: string, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(
      tx,
      `WITH list AS (SELECT id FROM contact_lists WHERE id = $2 AND account_id = $1),
            existing AS (SELECT id FROM contacts WHERE account_id = $1 AND number = $3 ORDER BY updated_at DESC, id DESC LIMIT 1),
            created AS (INSERT INTO contacts (account_id, number) SELECT $1, $3 WHERE NOT EXISTS (SELECT 1 FROM existing) AND EXISTS (SELECT 1 FROM list) RETURNING id)
       INSERT INTO list_members (list_id, contact_id)
       SELECT list.id, c.id FROM list, (SELECT id FROM existing UNION ALL SELECT id FROM created) c
       ON CONFLICT DO NOTHING`,
      [accountId, listId, number],
    );
    return rowCount > 0;
  }

  async removeNumber(accountId: number, listId: number, number: string, tx: Tx): Promise<number> {
    const { rowCount } = await sql(tx, `DELETE FROM list_members m USING contacts c WHERE m.list_id = $2 AND c.account_id = $1 AND c.number = $3 AND m.contact_id = c.id`, [
      accountId,
      listId,
      number,
    ]);
    return rowCount;
  }

  /** Removes every contact of the account with this number from every list (an unsubscribe). */
  async removeNumberEverywhere(accountId: number, number: string, tx?: Tx): Promise<number> {
    const { rowCount } = await sql(tx ?? this.dataSource, `DELETE FROM list_members m USING contacts c WHERE c.account_id = $1 AND c.number = $2 AND m.contact_id = c.id`, [
      accountId,
      number,
    ]);
    return rowCount;
  }

  /** The member of the list with this number, if any (the most recently updated when duplicates exist). */
  async findMemberByNumber(listId: number, accountId: number, number: string): Promise<number | null> {
    const { rows } = await sql<{ id: number }>(
      this.dataSource,
      `SELECT c.id FROM list_members m JOIN contacts c ON c.id = m.contact_id
        WHERE m.list_id = $1 AND c.account_id = $2 AND c.number = $3 ORDER BY c.updated_at DESC, c.id DESC LIMIT 1`,
      [listId, accountId, number],
    );
    return rows[0]?.id ?? null;
  }
}
