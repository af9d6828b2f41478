import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Purchases by API (interface: Authentication 7): the account's customer record and saved cards at the
 * payment provider (never a card number: provider ids, brand, last 4, expiry), the simulated provider's
 * own payment records, purchases as a state machine (created → charged → fulfilled, or declined, or
 * held), and the yearly subscriptions of bought dedicated numbers.
 */
export class Purchases1763702000000 implements MigrationInterface {
  name = 'Purchases1763702000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_customers (
        account_id integer PRIMARY KEY,
        provider text NOT NULL,
        customer_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT payment_customers_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT payment_customers_provider_check CHECK (provider IN ('stripe', 'simulated'))
      )`);
    await q.query(`
      CREATE TABLE payment_cards (
        id SERIAL PRIMARY KEY,
        account_id integer NOT NULL,
        provider text NOT NULL,
        payment_method_id text NOT NULL,
        brand text NOT NULL,
        last4 text NOT NULL,
        exp_month integer NOT NULL,
        exp_year integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        removed_at timestamptz,
        CONSTRAINT payment_cards_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT payment_cards_provider_check CHECK (provider IN ('stripe', 'simulated')),
        CONSTRAINT payment_cards_last4_check CHECK (last4 ~ '^[0-9]{4}$'),
        CONSTRAINT payment_cards_exp_month_check CHECK (exp_month BETWEEN 1 AND 12)
      )`);
    await q.query(`CREATE INDEX payment_cards_account_idx ON payment_cards (account_id) WHERE removed_at IS NULL`);
    await q.query(`
      CREATE TABLE simulated_payments (
        id text PRIMARY KEY,
        idempotency_key text NOT NULL,
        customer_id text NOT NULL,
        payment_method_id text NOT NULL,
        amount_cents integer NOT NULL,
        currency text NOT NULL,
        status text NOT NULL,
        decline_code text,
        refunded boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT simulated_payments_status_check CHECK (status IN ('succeeded', 'declined', 'held'))
      )`);
    await q.query(`CREATE UNIQUE INDEX simulated_payments_idempotency_key_key ON simulated_payments (idempotency_key)`);
    await q.query(`
      CREATE TABLE purchases (
        id BIGSERIAL PRIMARY KEY,
        account_id integer NOT NULL,
        api_key_id integer,
        api_key_label text NOT NULL DEFAULT '',
        api_username text NOT NULL DEFAULT '',
        idempotency_key text,
        fingerprint bytea,
        kind text NOT NULL,
        state text NOT NULL DEFAULT 'created',
        credits integer,
        number text,
        card_id integer NOT NULL,
        card_last4 text NOT NULL,
        amount_ex_gst_cents integer NOT NULL,
        gst_cents integer NOT NULL,
        amount_inc_gst_cents integer NOT NULL,
        provider text NOT NULL,
        provider_payment_id text,
        invoice_number text,
        created_at timestamptz NOT NULL,
        charged_at timestamptz,
        settled_at timestamptz,
        invoice_emailed_at timestamptz,
        CONSTRAINT purchases_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT purchases_api_key_id_fkey FOREIGN KEY (api_key_id) REFERENCES api_keys(id) ON DELETE SET NULL,
        CONSTRAINT purchases_card_id_fkey FOREIGN KEY (card_id) REFERENCES payment_cards(id),
        CONSTRAINT purchases_kind_check CHECK (kind IN ('credits', 'number', 'renewal')),
        CONSTRAINT purchases_state_check CHECK (state IN ('created', 'charged', 'fulfilled', 'declined', 'held', 'refunded')),
        CONSTRAINT purchases_amounts_check CHECK (amount_ex_gst_cents >= 0 AND gst_cents >= 0 AND amount_inc_gst_cents = amount_ex_gst_cents + gst_cents),
        CONSTRAINT purchases_what_check CHECK ((kind = 'credits' AND credits > 0 AND number IS NULL) OR (kind <> 'credits' AND credits IS NULL AND number IS NOT NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX purchases_idempotency_key ON purchases (api_key_id, idempotency_key)`);
    await q.query(`CREATE UNIQUE INDEX purchases_invoice_number_key ON purchases (invoice_number)`);
    await q.query(`CREATE INDEX purchases_api_key_created_idx ON purchases (api_key_id, created_at)`);
    await q.query(`CREATE INDEX purchases_account_created_idx ON purchases (account_id, created_at)`);
    await q.query(`CREATE INDEX purchases_unsettled_idx ON purchases (created_at) WHERE state IN ('created', 'charged')`);
    await q.query(`
      CREATE TABLE number_subscriptions (
        id SERIAL PRIMARY KEY,
        number text NOT NULL,
        account_id integer NOT NULL,
        purchase_id bigint NOT NULL,
        card_id integer NOT NULL,
        api_key_id integer,
        purchased_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        renewal_state text NOT NULL DEFAULT 'active',
        renewal_attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        released_at timestamptz,
        CONSTRAINT number_subscriptions_number_fkey FOREIGN KEY (number) REFERENCES dedicated_numbers(number),
        CONSTRAINT number_subscriptions_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT number_subscriptions_purchase_id_fkey FOREIGN KEY (purchase_id) REFERENCES purchases(id),
        CONSTRAINT number_subscriptions_card_id_fkey FOREIGN KEY (card_id) REFERENCES payment_cards(id),
        CONSTRAINT number_subscriptions_api_key_id_fkey FOREIGN KEY (api_key_id) REFERENCES api_keys(id) ON DELETE SET NULL,
        CONSTRAINT number_subscriptions_renewal_state_check CHECK (renewal_state IN ('active', 'retrying', 'released'))
      )`);
    await q.query(`CREATE UNIQUE INDEX number_subscriptions_live_number_key ON number_subscriptions (number) WHERE released_at IS NULL`);
    await q.query(`CREATE INDEX number_subscriptions_account_idx ON number_subscriptions (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE number_subscriptions`);
    await q.query(`DROP TABLE purchases`);
    await q.query(`DROP TABLE simulated_payments`);
    await q.query(`DROP TABLE payment_cards`);
    await q.query(`DROP TABLE payment_customers`);
  }
}
