import { DataSource } from 'typeorm';
import { WebhookQueue } from '../../src/queues/webhook-queue';
import { EXHAUSTED_RECHECK_MS } from '../../src/webhooks/claim-planner';
import { WebhookDeliveryService } from '../../src/webhooks/webhook-delivery.service';
import { ClaimedEvent, WebhookDeliveryRepository } from '../../src/webhooks/webhook-delivery.repository';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Events committed while a claim runs, after its snapshot: the claim comes back empty, and the events'
 * wake-up has already reached the deliverer. The deliverer must claim again at once, not believe the empty
 * claim until its recheck two seconds later (nor until the sweep, here a minute away).
 */
describe('A wake-up that arrives while a claim runs', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ webhookAllowPrivate: true, sweepIntervalMs: 60_000 });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
    await receiver.stop();
  });

  it('is not lost when the claim comes back empty: the event it announces is delivered without waiting for a recheck', async () => {
    const ds = t.app.get(DataSource);
    const repo = t.app.get(WebhookDeliveryRepository);
    const queue = t.app.get(WebhookQueue);
    const delivery = t.app.get(WebhookDeliveryService);
    const { accountId } = await createAccount(t.app, { test: true });
    await ds.query(`UPDATE accounts SET webhook_status_url = $2 WHERE id = $1`, [accountId, receiver.url('/wake')]);

    // Each wake-up job reaching the deliverer, in order.
    let wakeUps = 0;
    const deliverDue = delivery.deliverDue.bind(delivery);
    jest.spyOn(delivery, 'deliverDue').mockImplementation(() => {
      wakeUps++;
      return deliverDue();
    });
    // The first empty claim: before it returns, an event is committed and its wake-up handled by the deliverer.
    const claimDue = repo.claimDue.bind(repo);
    let committedAt = 0;
    jest.spyOn(repo, 'claimDue').mockImplementation(async (...args: Parameters<WebhookDeliveryRepository['claimDue']>): Promise<ClaimedEvent[]> => {
      const claimed = await claimDue(...args);
      if (claimed.length === 0 && committedAt === 0) {
        await ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'status', '{"n":"during the claim"}')`, [accountId]);
        committedAt = Date.now();
        const before = wakeUps;
        await queue.wake();
        await until(async () => wakeUps > before, 'the wake-up to reach the deliverer');
      }
      return claimed;
    });

    // A wake-up with nothing due starts a drain, whose first claim finds nothing.
    await queue.wake();
    await until(async () => receiver.received.length > 0, 'the event to be delivered', 10_000, 10);

    expect(committedAt).toBeGreaterThan(0);
    expect(receiver.received.map((w) => w.body)).toEqual([{ n: 'during the claim' }]);
    // Before the fix it arrived only after the recheck: 2 s and more after it was committed.
    expect(receiver.received[0].arrivedAt - committedAt).toBeLessThan(EXHAUSTED_RECHECK_MS / 2);
  });
});
