import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerFor, sql } from '../database/sql';
import { RECEIVING_NUMBER_LOCK_SQL } from './receiving-number-lock';
import { Sender, SenderType } from './sender.entity';

const SENDER = `id, account_id AS "accountId", value, type, status, label, is_default AS "isDefault", created_at AS "createdAt"`;

@Injectable()
export class SendersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return managerFor(this.dataSource, tx).getRepository(Sender);
  }

  async findActive(accountId: number, tx?: Tx): Promise<Sender[]> {
    return this.repo(tx).find({ where: { accountId, status: 'active' }, order: { isDefault: 'DESC', id: 'ASC' } });
  }

  /** Active and pending senders (the Sender IDs page), oldest first. */
  async findCurrent(accountId: number): Promise<Sender[]> {
    const { rows } = await sql<Sender>(this.dataSource, `SELECT ${SENDER} FROM senders WHERE account_id = $1 AND status <> 'removed' ORDER BY is_default DESC, id`, [accountId]);
    return rows;
  }

  /** The account's sender with this value, whatever its status, locked for the caller's transaction. */
  async findByValueForUpdate(accountId: number, value: string, tx: Tx): Promise<Sender | null> {
    const { rows } = await sql<Sender>(tx, `SELECT ${SENDER} FROM senders WHERE account_id = $1 AND value = $2 FOR UPDATE`, [accountId, value]);
    return rows[0] ?? null;
  }

  async findByIdForUpdate(accountId: number, senderId: number, tx: Tx): Promise<Sender | null> {
    const { rows } = await sql<Sender>(tx, `SELECT ${SENDER} FROM senders WHERE account_id = $1 AND id = $2 FOR UPDATE`, [accountId, senderId]);
    return rows[0] ?? null;
  }

  async findById(senderId: number, tx?: Tx): Promise<Sender | null> {
    const { rows } = await sql<Sender>(tx ?? this.dataSource, `SELECT ${SENDER} FROM senders WHERE id = $1`, [senderId]);
    return rows[0] ?? null;
  }

  /** Holds the number's receiving-number lock until the transaction ends (receiving-number-lock.ts). */
  async lockReceivingNumber(value: string, tx: Tx): Promise<void> {
    await sql(tx, RECEIVING_NUMBER_LOCK_SQL, [value]);
  }

  /** Another account on which the number is an active sender of one of these types, oldest first; null for none. */
  async activeElsewhere(accountId: number, value: string, types: readonly SenderType[], tx: Tx): Promise<{ accountId: number; type: SenderType } | null> {
    const { rows } = await sql<{ accountId: number; type: SenderType }>(
      tx,
      `SELECT account_id AS "accountId", type FROM senders WHERE value = $1 AND status = 'active' AND account_id <> $2 AND type = ANY($3::text[]) ORDER BY id LIMIT 1`,
      [value, accountId, types],
    );
    return rows[0] ?? null;
  }

  /**
   * The account the dedicated number inventory has assigned the number to, when that is not this one.
   * FOR SHARE: a free-number claim assigning it right now is waited for, so its assignment is seen.
   */
  async assignedElsewhere(accountId: number, value: string, tx: Tx): Promise<number | null> {
    const { rows } = await sql<{ accountId: number }>(tx, `SELECT account_id AS "accountId" FROM dedicated_numbers WHERE number = $1 FOR SHARE`, [value]);
    const holder = rows[0]?.accountId ?? null;
    return holder !== null && holder !== accountId ? holder : null;
  }

  /** Adds the sender, or re-activates it (with the given type) when it was removed. */
  async upsertActive(accountId: number, value: string, type: SenderType, tx?: Tx): Promise<Sender> {
    const { rows } = await sql<{ id: number }>(
      tx ?? this.dataSource,
      `INSERT INTO senders (account_id, value, type, status) VALUES ($1, $2, $3, 'active')
       ON CONFLICT (account_id, value) DO UPDATE SET status = 'active', type = EXCLUDED.type
       RETURNING id`,
      [accountId, value, type],
    );
    return this.repo(tx).findOneOrFail({ where: { id: rows[0].id } });
  }

  /** Makes the sender active with this type; a new one gets the label, an existing one keeps its own unless it has none. */
  async activate(accountId: number, value: string, type: SenderType, label: string, tx: Tx): Promise<Sender> {
    const { rows } = await sql<Sender>(
      tx,
      `INSERT INTO senders (account_id, value, type, status, label) VALUES ($1, $2, $3, 'active', $4)
       ON CONFLICT (account_id, value) DO UPDATE
         SET status = 'active', type = EXCLUDED.type, label = CASE WHEN senders.label = '' THEN EXCLUDED.label ELSE senders.label END
       RETURNING ${SENDER}`,
      [accountId, value, type, label],
    );
    return rows[0];
  }

  /** A mobile waiting for its confirmation link: a new pending `own` sender, or a removed one made pending again (label replaced when given). */
  async makePendingOwn(accountId: number, value: string, label: string, tx: Tx): Promise<Sender> {
    const { rows } = await sql<Sender>(
      tx,
      `INSERT INTO senders (account_id, value, type, status, label) VALUES ($1, $2, 'own', 'pending', $3)
       ON CONFLICT (account_id, value) DO UPDATE
         SET status = 'pending', type = 'own', is_default = false, label = CASE WHEN EXCLUDED.label = '' THEN senders.label ELSE EXCLUDED.label END
       RETURNING ${SENDER}`,
      [accountId, value, label],
    );
    return rows[0];
  }

  /** pending → active for an `own` sender; false when it is no longer pending (withdrawn meanwhile). */
  async activatePendingOwn(senderId: number, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx, `UPDATE senders SET status = 'active' WHERE id = $1 AND type = 'own' AND status = 'pending'`, [senderId]);
    return rowCount > 0;
  }

  async markRemovedById(senderId: number, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE senders SET status = 'removed', is_default = false WHERE id = $1`, [senderId]);
  }

  async markRemoved(accountId: number, value: string): Promise<boolean> {
    const { rowCount } = await sql(this.dataSource, `UPDATE senders SET status = 'removed', is_default = false WHERE account_id = $1 AND value = $2 AND status <> 'removed'`, [
      accountId,
      value,
    ]);
    return rowCount > 0;
  }
}
