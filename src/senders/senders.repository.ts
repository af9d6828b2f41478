import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerFor, sql } from '../database/sql';
import { Sender, SenderType } from './sender.entity';

@Injectable()
export class SendersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return managerFor(this.dataSource, tx).getRepository(Sender);
  }

  async findActive(accountId: number): Promise<Sender[]> {
    return this.repo().find({ where: { accountId, status: 'active' }, order: { isDefault: 'DESC', id: 'ASC' } });
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

  async markRemoved(accountId: number, value: string): Promise<boolean> {
    const { rowCount } = await sql(this.dataSource, `UPDATE senders SET status = 'removed', is_default = false WHERE account_id = $1 AND value = $2 AND status <> 'removed'`, [
      accountId,
      value,
    ]);
    return rowCount > 0;
  }
}
