import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { PaymentCard, ProviderName } from './payment-card.entity';
import type { CardDetails } from './payment-provider';

const CARD = `id, account_id AS "accountId", provider, payment_method_id AS "paymentMethodId", brand, last4, exp_month AS "expMonth", exp_year AS "expYear",
  created_at AS "createdAt", removed_at AS "removedAt"`;

@Injectable()
export class CardsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async customerOf(accountId: number, provider: ProviderName, tx?: Tx): Promise<string | null> {
    const { rows } = await sql<{ customer_id: string }>(tx ?? this.dataSource, `SELECT customer_id FROM payment_customers WHERE account_id = $1 AND provider = $2`, [
      accountId,
      provider,
    ]);
    return rows[0]?.customer_id ?? null;
  }

  /** Records the account's customer unless one is already recorded; answers the one that holds. */
  async saveCustomer(accountId: number, provider: ProviderName, customerId: string): Promise<string> {
    await sql(
      this.dataSource,
      `INSERT INTO payment_customers (account_id, provider, customer_id) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET provider = EXCLUDED.provider, customer_id = EXCLUDED.customer_id WHERE payment_customers.provider <> EXCLUDED.provider`,
      [accountId, provider, customerId],
    );
    return (await this.customerOf(accountId, provider))!;
  }

  async insert(accountId: number, provider: ProviderName, card: CardDetails): Promise<PaymentCard> {
    const { rows } = await sql<PaymentCard>(
      this.dataSource,
      `INSERT INTO payment_cards (account_id, provider, payment_method_id, brand, last4, exp_month, exp_year)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${CARD}`,
      [accountId, provider, card.paymentMethodId, card.brand, card.last4, card.expMonth, card.expYear],
    );
    return rows[0];
  }

  /** The account's saved cards (of the configured provider), oldest first. */
  async listSaved(accountId: number, provider: ProviderName, tx?: Tx): Promise<PaymentCard[]> {
    const { rows } = await sql<PaymentCard>(tx ?? this.dataSource, `SELECT ${CARD} FROM payment_cards WHERE account_id = $1 AND provider = $2 AND removed_at IS NULL ORDER BY id`, [
      accountId,
      provider,
    ]);
    return rows;
  }

  async byId(accountId: number, cardId: number, tx?: Tx): Promise<PaymentCard | null> {
    const { rows } = await sql<PaymentCard>(tx ?? this.dataSource, `SELECT ${CARD} FROM payment_cards WHERE account_id = $1 AND id = $2`, [accountId, cardId]);
    return rows[0] ?? null;
  }

  async markRemoved(accountId: number, cardId: number): Promise<PaymentCard | null> {
    const { rows } = await sql<PaymentCard>(
      this.dataSource,
      `UPDATE payment_cards SET removed_at = now() WHERE account_id = $1 AND id = $2 AND removed_at IS NULL RETURNING ${CARD}`,
      [accountId, cardId],
    );
    return rows[0] ?? null;
  }
}
