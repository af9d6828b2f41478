import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { startSmsc, smppSettings } from '../support/delivery';
import { createAccount, startTestApp } from '../support/test-app';
import { until } from '../support/wait';

describe('Operations: /metrics and /health', () => {
  let smsc: SmscSimulator;
  let port: number;

  beforeAll(async () => {
    ({ smsc, port } = await startSmsc());
  });
  afterAll(() => smsc.stop());

  it('exposes dispatch rate, receipts, queue depth and SMPP state in Prometheus format without auth', async () => {
    const t = await startTestApp(smppSettings(port));
    try {
      const acct = await createAccount(t.app, { credits: 10, senders: ['Brand'] });
      await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412000001', message: 'hi', sender: 'Brand' }] } });
      let text = '';
      await until(async () => {
        text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
        return /sms_parts_settled_total\{status="delivered"\} 1/.test(text);
      }, 'the receipt to show in the metrics');
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(text).toMatch(/^sms_parts_submitted_total 1$/m);
      expect(text).toMatch(/^sms_receipt_lag_seconds_count 1$/m);
      expect(text).toMatch(/^sms_dispatch_queue_jobs\{state="waiting"\} \d+$/m);
      expect(text).toMatch(/^sms_dispatch_oldest_due_seconds \d/m);
      expect(text).toMatch(/^sms_carrier_binds\{carrier="env",state="configured"\} 2$/m);
      expect(text).toMatch(/^sms_carrier_binds\{carrier="env",state="up"\} 2$/m);
    } finally {
      await t.close();
    }
  });

  it('leaves /metrics out when METRICS_ENABLED is false', async () => {
    const t = await startTestApp({ metricsEnabled: false, appRole: 'api' });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('reports the carrier binds in /health and says degraded when no bind is up', async () => {
    const good = await startTestApp(smppSettings(port));
    try {
      await until(async () => (await good.api.get('/health')).body.carrier?.binds_up === 2, 'both binds up');
      expect((await good.api.get('/health')).body).toMatchObject({
        status: 'ok',
        carrier: {
          kind: 'smpp',
          binds_configured: 2,
          binds_up: 2,
          carriers: [{ id: 0, name: 'env', state: 'up', reason: null, binds_configured: 2, binds_up: 2, in_flight: 0 }],
          waiting_for_carrier: { messages: 0, parts: 0 },
        },
        problems: [],
      });
    } finally {
      await good.close();
    }
    const failuresBefore = smsc.counters.bindFailures;
    const bad = await startTestApp(smppSettings(port, { smppPassword: 'wrong-pw' }));
    try {
      await until(() => smsc.counters.bindFailures > failuresBefore, 'the SMSC to refuse the bind');
      const res = await bad.api.get('/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'degraded', carrier: { binds_up: 0 }, problems: ['no SMPP bind is up'] });
    } finally {
      await bad.close();
    }
  });
});
