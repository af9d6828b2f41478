import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import type { SimulatedPayment } from './simulated-payment.entity';

const COLUMNS = `id, idempotency_key AS "idempotencyKey", customer_id AS "customerId", payment_method_id AS "paymentMethodId",
  amount_cents AS "amountCents", currency, status, decline_code AS "declineCode", refunded, created_at AS "createdAt"`;

@Injectable()
export class SimulatedPaymentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records the payment unless its idempotency key already has one; answers the record that holds the key (the first). */
  async insertOrGet(payment: Omit<SimulatedPayment, 'createdAt' | 'refunded'>): Promise<SimulatedPayment> {
    await sql(
      this.dataSource,
      `INSERT INTO simulated_payments (id, idempotency_key, customer_id, payment_method_id, amount_cents, currency, status, decline_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (idempotency_key) DO NOTHING`,
      [payment.id, payment.idempotencyKey, payment.customerId, payment.paymentMethodId, payment.amountCents, payment.currency, payment.status, payment.declineCode],
    );
    const { rows } = await sql<SimulatedPayment>(this.dataSource, `SELECT ${COLUMNS} FROM simulated_payments WHERE idempotency_key = $1`, [payment.idempotencyKey]);
    return rows[0];
  }

  async markRefunded(paymentId: string): Promise<boolean> {
    const { rowCount } = await sql(this.dataSource, `UPDATE simulated_payments SET refunded = true WHERE id = $1`, [paymentId]);
    return rowCount > 0;
  }
}
