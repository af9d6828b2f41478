import { DataSource } from 'typeorm';
import { LedgerVerificationService } from '../../src/billing/ledger-verification.service';
import { PurchaseReconciler } from '../../src/purchases/purchase-reconciler.service';
import { InvoiceMailer } from '../../src/purchases/invoice-mailer.service';
import { accountWithOwner, DashboardAccount } from '../support/dashboard';
import { addCard, buyCredits, enablePurchases, newKey } from '../support/purchases';
import { runCli } from '../support/run-cli';
import { SmtpPeer } from '../support/smtp-peer';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

const RESPONSE_KEYS = ['amount_ex_gst', 'amount_inc_gst', 'card_last4', 'credit_balance', 'credits', 'gst', 'invoice_number', 'purchase_id', 'state', 'status'];

/** POST /v1/credit-purchases with the simulated provider: every text, every state, idempotency, the daily limit, a crash. */
describe('POST /v1/credit-purchases', () => {
  let t: TestApp;
  let db: DataSource;
  const smtp = new SmtpPeer();

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, inflightLimit: 25, purchaseJobsIntervalMs: 0, purchaseWaitMs: 10_000 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** An account with an owner, purchases on and one saved card. */
  async function buyer(options: { card?: string | null; limit?: number } = {}): Promise<DashboardAccount> {
    const acct = await accountWithOwner(t.app, { credits: 10 });
    await enablePurchases(t.app, acct, options.limit ?? 500);
    if (options.card !== null) await addCard(t.app, acct.accountId, options.card ?? '4242424242424242');
    return acct;
  }
  const ledger = (accountId: number) => db.query(`SELECT kind, amount::int, reference FROM credit_ledger WHERE account_id = $1 ORDER BY id`, [accountId]);
  const payments = (purchaseId: number) => db.query(`SELECT status, amount_cents FROM simulated_payments WHERE idempotency_key = $1`, [`purchase-${purchaseId}-charge`]);

  it('needs an Idempotency-Key before anything else: 400', async () => {
    const acct = await createAccount(t.app);
    const res = await buyCredits(t, acct, { credits: 1000 }, null);
    expect([res.status, res.body]).toEqual([400, { error: 'Idempotency-Key header is required' }]);
  });

  it('is refused while the key’s purchases switch is off (the default): 403', async () => {
    const acct = await createAccount(t.app);
    await addCard(t.app, acct.accountId);
    const res = await buyCredits(t, acct, { credits: 1000 });
    expect([res.status, res.body]).toEqual([403, { error: 'Purchases are not enabled for this API key' }]);
  });

  it('checks credits and card_last4 with their texts', async () => {
    const acct = await buyer();
    const cases: Array<[unknown, string]> = [
      [{}, 'credits is required'],
      [{ credits: null }, 'credits is required'],
      [{ credits: 499 }, 'The minimum purchase is 500 credits'],
      [{ credits: 0 }, 'The minimum purchase is 500 credits'],
      [{ credits: -1000 }, 'The minimum purchase is 500 credits'],
      [{ credits: 1000.5 }, 'credits must be a whole number'],
      [{ credits: '1000' }, 'credits must be a whole number'],
      [{ credits: [1000] }, 'credits must be a whole number'],
      [{ credits: 10_000_001 }, 'The maximum purchase is 10000000 credits'],
      [{ credits: 1000, card_last4: '42' }, 'card_last4 must be 4 digits'],
      [{ credits: 1000, card_last4: 4242 }, 'card_last4 must be 4 digits'],
    ];
    for (const [body, error] of cases) {
      const res = await buyCredits(t, acct, body);
      expect([JSON.stringify(body), res.status, res.body]).toEqual([JSON.stringify(body), 400, { error }]);
    }
  });

  it('needs a saved card, and names it by its last 4 digits when there are several', async () => {
    const acct = await buyer({ card: null });
    const none = await buyCredits(t, acct, { credits: 1000 });
    expect([none.status, none.body]).toEqual([400, { error: 'No saved card on this account' }]);
    await addCard(t.app, acct.accountId, '4242424242424242');
    await addCard(t.app, acct.accountId, '5555555555554444');
    const which = await buyCredits(t, acct, { credits: 1000 });
    expect([which.status, which.body]).toEqual([400, { error: 'card_last4 is required when more than one card is saved' }]);
    const unknown = await buyCredits(t, acct, { credits: 1000, card_last4: '1111' });
    expect([unknown.status, unknown.body]).toEqual([400, { error: 'No saved card ends in 1111' }]);
    const chosen = await buyCredits(t, acct, { credits: 1000, card_last4: '4444' });
    expect([chosen.status, chosen.body.card_last4]).toEqual([200, '4444']);
    expect(await db.query(`SELECT count(*)::int AS n FROM purchases WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 1 }]);
  });

  it('charges the card, lands the credits through the ledger, emails the tax invoice naming the key', async () => {
    const acct = await buyer();
    await db.query(`UPDATE accounts SET billing_email = $2 WHERE id = $1`, [acct.accountId, `billing.${acct.accountId}@example.com.au`]);
    const res = await buyCredits(t, acct, { credits: 1000 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(RESPONSE_KEYS);
    expect(res.body).toEqual({
      status: 'complete',
      state: 'fulfilled',
      purchase_id: expect.any(Number),
      credits: 1000,
      amount_ex_gst: 35,
      gst: 3.5,
      amount_inc_gst: 38.5,
      card_last4: '4242',
      credit_balance: 1010,
      invoice_number: `INV-${String(res.body.purchase_id).padStart(8, '0')}`,
    });
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(1010);
    expect(await ledger(acct.accountId)).toEqual([
      { kind: 'grant', amount: 1000, reference: 'account:create' },
      { kind: 'grant', amount: 100_000, reference: `purchase:${res.body.purchase_id}` },
    ]);
    expect(await payments(res.body.purchase_id)).toEqual([{ status: 'succeeded', amount_cents: 3850 }]);
    expect((await t.app.get(LedgerVerificationService).verify(acct.accountId)).violations).toEqual([]);

    const mail = await smtp.mailTo(`billing.${acct.accountId}@example.com.au`, /^Tax invoice INV-/);
    expect(mail.subject).toBe(`Tax invoice ${res.body.invoice_number}`);
    expect(mail.text).toContain(`Bought with the API key "default" (${acct.username}).`);
    expect(mail.text).toContain('Total: A$38.50 inc. GST (GST A$3.50)');
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`${res.body.invoice_number}.pdf`, 'application/pdf']]);
    expect(mail.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(smtp.mailsTo(acct.ownerEmail).filter((m) => m.subject.startsWith('Tax invoice'))).toEqual([]);
  });

  it('emails the invoice to the owner when no billing address is set', async () => {
    const acct = await buyer();
    const res = await buyCredits(t, acct, { credits: 500 });
    expect(res.body).toMatchObject({ amount_ex_gst: 20, gst: 2, amount_inc_gst: 22 });
    expect((await smtp.mailTo(acct.ownerEmail, /^Tax invoice/)).subject).toBe(`Tax invoice ${res.body.invoice_number}`);
  });

  it.each([
    ['4000000000000002', 'generic_decline'],
    ['4000000000009995', 'insufficient_funds'],
  ])('answers 402 for a declined card (%s), adds nothing, and replays the 402 for the same key', async (card, code) => {
    const acct = await buyer({ card });
    const key = newKey();
    const res = await buyCredits(t, acct, { credits: 1000 }, key);
    expect([res.status, res.body]).toEqual([402, { error: 'Payment declined' }]);
    const again = await buyCredits(t, acct, { credits: 1000 }, key);
    expect([again.status, again.body, again.headers['idempotency-replay']]).toEqual([402, { error: 'Payment declined' }, 'true']);
    expect(await db.query(`SELECT state, invoice_number FROM purchases WHERE account_id = $1`, [acct.accountId])).toEqual([{ state: 'declined', invoice_number: null }]);
    expect(
      await db.query(`SELECT decline_code FROM simulated_payments WHERE customer_id = (SELECT customer_id FROM payment_customers WHERE account_id = $1)`, [acct.accountId]),
    ).toEqual([{ decline_code: code }]);
    expect(await ledger(acct.accountId)).toHaveLength(1);
    // A decline does not count against the daily limit.
    await enablePurchases(t.app, acct, 40);
    await addCard(t.app, acct.accountId, '4242424242424242');
    expect((await buyCredits(t, acct, { credits: 1000, card_last4: '4242' })).status).toBe(200);
  });

  it('answers 200 with state held for a payment held for review; nothing lands until purchase:release; purchase:refund refunds', async () => {
    const acct = await buyer({ card: '4000000000009235' });
    await db.query(`UPDATE accounts SET billing_email = $2 WHERE id = $1`, [acct.accountId, `billing.${acct.accountId}@example.com.au`]);
    const held = await buyCredits(t, acct, { credits: 1000 });
    expect([held.status, held.body.state, held.body.credit_balance, held.body.amount_inc_gst]).toEqual([200, 'held', 10, 38.5]);
    // Held: the owner is emailed, not the billing address.
    expect((await smtp.mailTo(acct.ownerEmail, /^Tax invoice .* \(payment held for review\)$/)).text).toContain('held for review');
    expect(smtp.mailsTo(`billing.${acct.accountId}@example.com.au`)).toEqual([]);
    expect(await ledger(acct.accountId)).toHaveLength(1);

    const released = await runCli('purchase:release', '--id', String(held.body.purchase_id));
    expect([released.code, released.json?.state]).toEqual([0, 'fulfilled']);
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(1010);
    const twice = await runCli('purchase:release', '--id', String(held.body.purchase_id));
    expect([twice.code, twice.stderr.trim()]).toEqual([1, `error: Purchase ${held.body.purchase_id} is fulfilled, not held for review`]);

    const second = await buyCredits(t, acct, { credits: 500 });
    expect(second.body.state).toBe('held');
    const refunded = await runCli('purchase:refund', '--id', String(second.body.purchase_id));
    expect([refunded.code, refunded.json?.state]).toEqual([0, 'refunded']);
    expect(await payments(second.body.purchase_id)).toEqual([{ status: 'held', amount_cents: 2200 }]);
    expect(await db.query(`SELECT refunded FROM simulated_payments WHERE idempotency_key = $1`, [`purchase-${second.body.purchase_id}-charge`])).toEqual([{ refunded: true }]);
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(1010);
    expect((await t.app.get(LedgerVerificationService).verify(acct.accountId)).ok).toBe(true);
  });

  it('keeps the key within its daily limit over 24 hours and says how much is left', async () => {
    const acct = await buyer({ limit: 50 });
    expect((await buyCredits(t, acct, { credits: 1000 })).status).toBe(200);
    const over = await buyCredits(t, acct, { credits: 500 });
    expect([over.status, over.body]).toEqual([403, { error: 'Daily purchase limit exceeded: $11.50 remaining' }]);
    // Purchases older than 24 hours no longer count.
    await db.query(`UPDATE purchases SET created_at = created_at - interval '24 hours 1 second' WHERE account_id = $1`, [acct.accountId]);
    expect((await buyCredits(t, acct, { credits: 500 })).status).toBe(200);
  });

  it('replays the same key and body (Idempotency-Replay) and refuses the same key with another body (422)', async () => {
    const acct = await buyer();
    const key = newKey();
    const first = await buyCredits(t, acct, { credits: 1000 }, key);
    const again = await buyCredits(t, acct, { credits: 1000 }, key);
    expect([again.status, again.text, again.headers['idempotency-replay']]).toEqual([200, first.text, 'true']);
    const other = await buyCredits(t, acct, { credits: 2000 }, key);
    expect([other.status, other.body]).toEqual([422, { error: 'Idempotency-Key was reused with a different request payload' }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM purchases WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 1 }]);
  });

  it('charges once for 20 concurrent requests with one Idempotency-Key', async () => {
    const acct = await buyer();
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => buyCredits(t, acct, { credits: 1000 }, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotency-replay'] !== 'true')).toHaveLength(1);
    const id = answers[0].body.purchase_id;
    expect(await payments(id)).toEqual([{ status: 'succeeded', amount_cents: 3850 }]);
    expect(
      await db.query(`SELECT count(*)::int AS n FROM simulated_payments WHERE customer_id = (SELECT customer_id FROM payment_customers WHERE account_id = $1)`, [acct.accountId]),
    ).toEqual([{ n: 1 }]);
    expect(await ledger(acct.accountId)).toEqual([
      { kind: 'grant', amount: 1000, reference: 'account:create' },
      { kind: 'grant', amount: 100_000, reference: `purchase:${id}` },
    ]);
  });

  it('lets one of two concurrent purchases through a daily limit that cannot hold both; the other learns what is left', async () => {
    const acct = await buyer({ limit: 60 });
    const answers = await Promise.all([buyCredits(t, acct, { credits: 1000 }), buyCredits(t, acct, { credits: 1000 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    expect(answers.find((a) => a.status === 403)!.body).toEqual({ error: 'Daily purchase limit exceeded: $21.50 remaining' });
    expect(
      await db.query(`SELECT count(*)::int AS n FROM simulated_payments WHERE customer_id = (SELECT customer_id FROM payment_customers WHERE account_id = $1)`, [acct.accountId]),
    ).toEqual([{ n: 1 }]);
  });

  it('a crash between the charge and its record is reconciled to exactly one charge and one fulfilment', async () => {
    const acct = await buyer();
    const key = newKey();
    // The process "dies" after the provider charged: recording the charge fails.
    const trigger = `fail_charged_${acct.accountId}`;
    await db.query(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected crash'; END $$`);
    await db.query(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE ON purchases FOR EACH ROW WHEN (NEW.account_id = ${acct.accountId} AND NEW.state = 'charged') EXECUTE FUNCTION ${trigger}()`,
    );
    let crashed;
    try {
      crashed = await buyCredits(t, acct, { credits: 1000 }, key);
    } finally {
      await db.query(`DROP TRIGGER ${trigger} ON purchases`);
      await db.query(`DROP FUNCTION ${trigger}()`);
    }
    expect([crashed.status, crashed.body]).toEqual([500, { error: 'Internal server error' }]);
    const [purchase] = await db.query(`SELECT id::int, state FROM purchases WHERE account_id = $1`, [acct.accountId]);
    expect(purchase.state).toBe('created');
    expect(await payments(purchase.id)).toEqual([{ status: 'succeeded', amount_cents: 3850 }]);
    expect(await ledger(acct.accountId)).toHaveLength(1);

    const report = await t.app.get(PurchaseReconciler).run(0);
    expect(report.settled).toMatchObject({ fulfilled: expect.any(Number) });
    expect(await db.query(`SELECT state FROM purchases WHERE id = $1`, [purchase.id])).toEqual([{ state: 'fulfilled' }]);
    expect(await payments(purchase.id)).toHaveLength(1);
    expect(await ledger(acct.accountId)).toEqual([
      { kind: 'grant', amount: 1000, reference: 'account:create' },
      { kind: 'grant', amount: 100_000, reference: `purchase:${purchase.id}` },
    ]);
    // The client's retry gets the settled answer; running the reconciler again changes nothing.
    const retry = await buyCredits(t, acct, { credits: 1000 }, key);
    expect([retry.status, retry.body.state, retry.body.purchase_id, retry.headers['idempotency-replay']]).toEqual([200, 'fulfilled', purchase.id, 'true']);
    await t.app.get(PurchaseReconciler).run(0);
    expect(await ledger(acct.accountId)).toHaveLength(2);
    await t.app.get(InvoiceMailer).drain();
    expect(smtp.mailsTo(acct.ownerEmail).filter((m) => m.subject.startsWith('Tax invoice'))).toHaveLength(1);
  });

  it('card:add saves a test card (never its number) and refuses other numbers', async () => {
    const acct = await createAccount(t.app);
    const added = await runCli('card:add', '--account', String(acct.accountId), '--card', '4242 4242 4242 4242');
    expect(added.code).toBe(0);
    expect(added.json).toEqual({
      card_id: expect.any(Number),
      account_id: acct.accountId,
      provider: 'simulated',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: expect.any(Number),
    });
    const stored = JSON.stringify(await db.query(`SELECT * FROM payment_cards WHERE account_id = $1`, [acct.accountId]));
    expect(stored).not.toContain('4242424242424242');
    const refused = await runCli('card:add', '--account', String(acct.accountId), '--card', '4111111111111111');
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringContaining('error: Not a test card of the simulated payment provider. Use one of: 4242424242424242 (succeeds)'),
    ]);
    const missing = await runCli('card:add', '--account', String(acct.accountId));
    expect([missing.code, missing.stderr.trim()]).toEqual([2, 'error: --card is required']);
  });
});
