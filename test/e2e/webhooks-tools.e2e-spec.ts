import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { signWebhook } from '../../src/webhooks/signature';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';

const RECIPES = join(__dirname, '../../docs/webhook-signature');
/** The published verification recipes, each run with its language's own interpreter as a command. */
const VERIFIERS = {
  node: [process.execPath, join(RECIPES, 'verify.mjs')],
  python: ['python3', join(RECIPES, 'verify.py')],
  php: ['php', join(RECIPES, 'verify.php')],
} as const;

function verify(language: keyof typeof VERIFIERS, secret: string, timestamp: string, signature: string, body: string): { status: number | null; out: string } {
  const [command, script] = VERIFIERS[language];
  const run = spawnSync(command, [script, timestamp, signature], { input: Buffer.from(body, 'utf8'), env: { ...process.env, WEBHOOK_SECRET: secret }, encoding: 'utf8' });
  if (run.error) throw new Error(`${language} verifier could not run (${command}): ${run.error.message}`);
  return { status: run.status, out: run.stdout.trim() };
}

describe('Webhook tools: test events, redelivery, and the signature recipes', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ webhookAllowPrivate: true, webhookMaxRetries: 0, webhookTimeoutMs: 1000, sweepIntervalMs: 200 });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.setDefault({ status: 200 });
  });

  async function account(urls: { status?: string; inbound?: string } = {}): Promise<TestAccount> {
    const acct = await createAccount(t.app, { test: true });
    await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: urls.status ?? '', inbound: urls.inbound ?? '' } });
    return acct;
  }
  const arrivedFor = (eventId: number) => receiver.received.filter((w) => w.headers['x-mm-event-id'] === String(eventId));
  const attemptsOf = async (acct: TestAccount, eventId: number) =>
    ((await t.api.get('/v1/webhook-deliveries', { auth: acct.auth })).body.results as Array<{ event_id: number; attempt: number; delivered: boolean }>)
      .filter((a) => a.event_id === eventId)
      .sort((a, b) => a.attempt - b.attempt);

  describe('POST /v1/webhooks/test-event', () => {
    it('sends a signed sample to the status URL, which each published recipe verifies and a changed byte fails', async () => {
      const acct = await account({ status: receiver.url('/status') });
      const secret = (await t.api.post('/v1/webhooks/signing-secret', { auth: acct.auth })).body.signing_secret as string;
      const sent = await t.api.post('/v1/webhooks/test-event', { auth: acct.auth, body: {} });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ status: 'complete', event_id: expect.any(Number) });
      await until(() => arrivedFor(sent.body.event_id).length === 1, 'the test event');
      const [hook] = arrivedFor(sent.body.event_id) as [ReceivedWebhook];
      expect(hook.body).toMatchObject({ test: true, status: 'delivered', part_number: 1, total_parts: 1 });
      expect(t.api.webhookProblem('messageStatus', hook.body)).toBeNull();
      const timestamp = String(hook.headers['x-mm-timestamp']);
      const signature = String(hook.headers['x-mm-signature']);
      for (const language of Object.keys(VERIFIERS) as Array<keyof typeof VERIFIERS>) {
        expect({ language, ...verify(language, secret, timestamp, signature, hook.raw) }).toEqual({ language, status: 0, out: 'valid' });
        expect({ language, ...verify(language, secret, timestamp, signature, hook.raw.replace('delivered', 'Delivered')) }).toEqual({ language, status: 1, out: 'invalid' });
        expect({ language, ...verify(language, `${secret}x`, timestamp, signature, hook.raw) }).toEqual({ language, status: 1, out: 'invalid' });
        // A replay of a signature made 10 minutes ago.
        expect({ language, ...verify(language, secret, String(Number(timestamp) - 600), signature, hook.raw) }).toEqual({ language, status: 1, out: 'invalid' });
      }
      await until(async () => (await attemptsOf(acct, sent.body.event_id)).length === 1, 'the logged attempt');
      expect(await attemptsOf(acct, sent.body.event_id)).toEqual([expect.objectContaining({ attempt: 1, delivered: true })]);
    });

    it('sends to the inbound URL when asked, and verifies with a UTF-8 body in every language', async () => {
      const acct = await account({ inbound: receiver.url('/inbound') });
      const secret = (await t.api.post('/v1/webhooks/signing-secret', { auth: acct.auth })).body.signing_secret as string;
      const sent = await t.api.post('/v1/webhooks/test-event', { auth: acct.auth, body: { event: 'inbound' } });
      expect(sent.status).toBe(200);
      await until(() => arrivedFor(sent.body.event_id).length === 1, 'the inbound test event');
      const [hook] = arrivedFor(sent.body.event_id) as [ReceivedWebhook];
      expect(hook.body).toMatchObject({ test: true, type: 'inbound' });
      expect(t.api.webhookProblem('inboundMessage', hook.body)).toBeNull();
      // The recipes hash bytes, not characters: re-sign a body with non-ASCII text the way the service does.
      const body = JSON.stringify({ ...hook.body, message: 'Café ☕ 👍' });
      const timestamp = String(Math.floor(Date.now() / 1000));
      for (const language of Object.keys(VERIFIERS) as Array<keyof typeof VERIFIERS>) {
        expect({ language, ...verify(language, secret, timestamp, signWebhook(secret, timestamp, body), body) }).toEqual({ language, status: 0, out: 'valid' });
      }
    });

    it.each([
      [{ event: 'status' }, {}, 'No status webhook URL is set'],
      [{ event: 'inbound' }, { status: 'x' }, 'No inbound webhook URL is set'],
      [{ event: 'receipts' }, { status: 'x' }, 'event must be one of: status, inbound'],
    ])('answers 400 for %j when the account cannot take it', async (body, urls: { status?: string }, error) => {
      const acct = await account(urls.status ? { status: receiver.url('/s') } : {});
      const res = await t.api.post('/v1/webhooks/test-event', { auth: acct.auth, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });
  });

  describe('POST /v1/webhook-deliveries/redeliver', () => {
    async function failedEvent(acct: TestAccount): Promise<number> {
      receiver.setDefault({ status: 500 });
      const { event_id } = (await t.api.post('/v1/webhooks/test-event', { auth: acct.auth, body: {} })).body;
      const ds = t.app.get(DataSource);
      await until(async () => (await ds.query(`SELECT state FROM webhook_events WHERE id = $1`, [event_id]))[0].state === 'failed', 'the event to fail');
      return event_id as number;
    }

    it('gives a failed event one more attempt, numbered after its last, with the same event id, signed afresh (each recipe verifies it)', async () => {
      const acct = await account({ status: receiver.url('/status') });
      const secret = (await t.api.post('/v1/webhooks/signing-secret', { auth: acct.auth })).body.signing_secret as string;
      const eventId = await failedEvent(acct);
      receiver.setDefault({ status: 200 });
      const res = await t.api.post('/v1/webhook-deliveries/redeliver', { auth: acct.auth, body: { event_id: eventId } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'complete', redelivered: 1 });
      await until(async () => (await attemptsOf(acct, eventId)).length === 2, 'the redelivery');
      expect((await attemptsOf(acct, eventId)).map((a) => [a.attempt, a.delivered])).toEqual([
        [1, false],
        [2, true],
      ]);
      expect(arrivedFor(eventId)).toHaveLength(2);
      expect(new Set(arrivedFor(eventId).map((w) => w.raw)).size).toBe(1);
      const redelivered = arrivedFor(eventId)[1];
      for (const language of Object.keys(VERIFIERS) as Array<keyof typeof VERIFIERS>) {
        const [timestamp, signature] = [String(redelivered.headers['x-mm-timestamp']), String(redelivered.headers['x-mm-signature'])];
        expect({ language, ...verify(language, secret, timestamp, signature, redelivered.raw) }).toEqual({ language, status: 0, out: 'valid' });
        expect({ language, ...verify(language, `${secret}x`, timestamp, signature, redelivered.raw) }).toEqual({ language, status: 1, out: 'invalid' });
      }
      // Delivered now: nothing left to redeliver.
      const again = await t.api.post('/v1/webhook-deliveries/redeliver', { auth: acct.auth, body: { event_id: eventId } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'Only a failed or discarded webhook event can be redelivered' });
    });

    it("answers 404 for an unknown event and for another account's", async () => {
      const acct = await account({ status: receiver.url('/status') });
      const other = await account({ status: receiver.url('/other') });
      const theirs = await failedEvent(other);
      for (const eventId of [theirs, 999_999_999]) {
        const res = await t.api.post('/v1/webhook-deliveries/redeliver', { auth: acct.auth, body: { event_id: eventId } });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Webhook event not found' });
      }
    });

    it('redelivers every failed event of a period, and only those', async () => {
      const acct = await account({ status: receiver.url('/status') });
      const [first, second] = [await failedEvent(acct), await failedEvent(acct)];
      const ds = t.app.get(DataSource);
      await ds.query(`UPDATE webhook_events SET created_at = '2026-01-10 10:00:00+00' WHERE id = $1`, [first]);
      await ds.query(`UPDATE webhook_events SET created_at = '2026-01-10 12:00:00+00' WHERE id = $1`, [second]);
      receiver.setDefault({ status: 200 });
      const res = await t.api.post('/v1/webhook-deliveries/redeliver', { auth: acct.auth, body: { from: '2026-01-10 09:00:00', to: '2026-01-10 11:00:00' } });
      expect(res.body).toEqual({ status: 'complete', redelivered: 1 });
      await until(async () => (await attemptsOf(acct, first)).length === 2, 'the redelivery');
      expect((await ds.query(`SELECT id, state FROM webhook_events WHERE id = ANY($1) ORDER BY id`, [[first, second]])).map((e: { state: string }) => e.state)).toEqual([
        'delivered',
        'failed',
      ]);
    });

    it.each([
      [{}, 'from is required'],
      [{ from: '2026-01-10 09:00:00' }, 'to is required'],
      [{ from: '2026-01-10T09:00:00Z', to: '2026-01-10 10:00:00' }, 'from must be a UTC timestamp (YYYY-MM-DD HH:MM:SS)'],
      [{ from: '2026-02-30 09:00:00', to: '2026-03-10 10:00:00' }, 'from must be a UTC timestamp (YYYY-MM-DD HH:MM:SS)'],
      [{ from: '2026-01-10 10:00:00', to: '2026-01-10 10:00:00' }, 'from must be before to'],
      [{ event_id: 0 }, 'event_id must be a positive integer'],
    ])('answers 400 for %j', async (body, error) => {
      const acct = await account();
      const res = await t.api.post('/v1/webhook-deliveries/redeliver', { auth: acct.auth, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });
  });
});
