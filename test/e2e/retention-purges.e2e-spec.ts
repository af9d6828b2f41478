import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { ReceiptsRepository } from '../../src/delivery/state/receipts.repository';
import { LinkRetentionRepository } from '../../src/links/link-retention.repository';
import { LinkRetentionService } from '../../src/links/link-retention.service';
import { WebhookRetentionRepository } from '../../src/webhooks/webhook-retention.repository';
import { WebhookRetentionService } from '../../src/webhooks/webhook-retention.service';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** Retention of the unpartitioned tables that grow with traffic: short links and webhook records, deleted in batches. */
describe('Retention purges', () => {
  let t: TestApp;
  let ds: DataSource;
  let acct: TestAccount;

  beforeAll(async () => {
    // No periodic work in this process (the webhook sweep would settle the pending events): the purges are run here.
    t = await startTestApp({ appRole: 'api', shortLinkRetentionDays: 60, webhookRetentionDays: 30 });
    ds = t.app.get(DataSource);
    acct = await createAccount(t.app, { credits: 10, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  /** A webhook event made `ageDays` ago in `state`, with one attempt made at the same time; returns the event id. */
  async function event(ageDays: number, state: 'pending' | 'delivered' | 'failed'): Promise<number> {
    const [{ id }] = await ds.query(
      `INSERT INTO webhook_events (account_id, kind, body, state, created_at) VALUES ($1, 'status', '{}', $2, now() - $3 * interval '1 day') RETURNING id`,
      [acct.accountId, state, ageDays],
    );
    await ds.query(
      `INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, error, duration_ms, delivered, created_at)
       VALUES ($1, $2, 'status', 'https://example.test/hook', 1, '', 5, $3, now() - $4 * interval '1 day')`,
      [id, acct.accountId, state === 'delivered', ageDays],
    );
    return Number(id);
  }

  const eventIds = async (): Promise<number[]> =>
    (await ds.query(`SELECT id FROM webhook_events WHERE account_id = $1 ORDER BY id`, [acct.accountId])).map((r: { id: string }) => Number(r.id));
  const attemptEventIds = async (): Promise<number[]> =>
    (await ds.query(`SELECT event_id FROM webhook_attempts WHERE account_id = $1 ORDER BY id`, [acct.accountId])).map((r: { event_id: string }) => Number(r.event_id));

  it('deletes finished webhook events and attempts past WEBHOOK_RETENTION_DAYS, keeping events still retried and everything newer', async () => {
    const oldDelivered = await event(40, 'delivered');
    const oldFailed = await event(31, 'failed');
    const oldPending = await event(35, 'pending');
    const recent = await event(29, 'delivered');
    expect(await eventIds()).toEqual([oldDelivered, oldFailed, oldPending, recent]);

    expect(await new WebhookRetentionService(new WebhookRetentionRepository(ds), new Clock(), t.config).purgeExpired()).toEqual({ events: 2, attempts: 1 });

    // The finished old events went with their attempts (cascade); the event still retried stays, its old attempt does not.
    expect(await eventIds()).toEqual([oldPending, recent]);
    expect(await attemptEventIds()).toEqual([recent]);
  });

  it('walks the oldest ids in batches and stops at the first batch holding a row newer than the cutoff', async () => {
    await ds.query(`DELETE FROM webhook_events WHERE account_id = $1`, [acct.accountId]);
    const olds = [await event(50, 'delivered'), await event(50, 'delivered'), await event(50, 'pending')];
    const recent = await event(1, 'delivered');
    const afterOld = await event(50, 'delivered'); // old by its clock, but behind a newer id: left for a later run
    const repo = new WebhookRetentionRepository(ds);
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    const first = await repo.purgeEvents(cutoff, olds[0] - 1, 2);
    expect(first).toEqual({ lastId: olds[1], deleted: 2, more: true });
    const second = await repo.purgeEvents(cutoff, first.lastId, 2);
    expect(second).toEqual({ lastId: recent, deleted: 0, more: false }); // the pending event is skipped, the recent one stops the walk
    expect(await eventIds()).toEqual([olds[2], recent, afterOld]);
  });

  it('deletes stored early receipts an hour after they were applied and a week on when their part never came, in batches', async () => {
    const receipt = (smscId: string, receivedAgo: string, appliedAgo: string | null) =>
      ds.query(
        `INSERT INTO delivery_receipts (carrier_id, smsc_id, state, stat, err, done_at, received_at, applied_at)
         VALUES (0, $1, 'delivered', 'DELIVRD', '000', now(), now() - $2::interval, now() - $3::interval)`,
        [smscId, receivedAgo, appliedAgo],
      );
    await receipt('ret-applied-2h', '2 hours', '2 hours');
    await receipt('ret-applied-10m', '3 hours', '10 minutes');
    await receipt('ret-stray-8d', '8 days', null);
    await receipt('ret-waiting-1d', '1 day', null);
    for (let i = 0; i < 3; i++) await receipt(`ret-batch-${i}`, '1 day', '1 day');
    const uow = new UnitOfWork(ds);
    const repo = new ReceiptsRepository();
    // Batches of 2, as the purge walks them (on while a batch is full): five rows are past their use.
    const steps: number[] = [];
    do steps.push(await uow.run((tx) => repo.purgeEarlyReceipts(2, tx)));
    while (steps[steps.length - 1] === 2);
    expect(steps).toEqual([2, 2, 1]);
    const left = (await ds.query(`SELECT smsc_id FROM delivery_receipts WHERE smsc_id LIKE 'ret-%' ORDER BY smsc_id`)).map((r: { smsc_id: string }) => r.smsc_id);
    expect(left).toEqual(['ret-applied-10m', 'ret-waiting-1d']);
  });

  it('deletes short links past SHORT_LINK_RETENTION_DAYS and keeps newer ones', async () => {
    const link = (code: string, ageDays: number) =>
      ds.query(
        `INSERT INTO short_links (code, account_id, send_id, message_id, kind, url, created_at)
         VALUES ($1, $2, 1, gen_random_uuid(), 'url', 'https://example.test/', now() - $3 * interval '1 day')`,
        [code, acct.accountId, ageDays],
      );
    await link('retOld1', 61);
    await link('retNew1', 59);
    await link('retOld2', 400);
    const codes = async () => (await ds.query(`SELECT code FROM short_links WHERE account_id = $1 ORDER BY code`, [acct.accountId])).map((r: { code: string }) => r.code);
    expect(await codes()).toEqual(['retNew1', 'retOld1', 'retOld2']);

    expect(await new LinkRetentionService(new LinkRetentionRepository(ds), new Clock(), t.config).purgeExpired()).toBe(2);
    expect(await codes()).toEqual(['retNew1']);
  });
});
