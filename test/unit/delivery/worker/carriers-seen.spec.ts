/**
 * What operators see of two carriers (issue 28 item 7): every per-carrier series on /metrics exists and
 * moves under its own `carrier` label; /health lists each carrier's state and stays 200 'degraded' when
 * one of two is down; carrier:status prints binds, window use, rate and error share per carrier. Two
 * table carriers over two SMSC simulators on loopback, sharing the default route.
 */
import { Logger } from '@nestjs/common';
import { CarrierSecret } from '../../../../src/carriers/carrier-secret';
import type { CarrierSettingsSource } from '../../../../src/carriers/carrier-settings-source';
import type { StoredCarrier } from '../../../../src/carriers/carriers.repository';
import { summarise, type CarrierStatusStore, type PublishedWorker } from '../../../../src/carriers/carrier-status-store';
import { Clock } from '../../../../src/common/time/clock';
import { loadConfig } from '../../../../src/config/app-config';
import { CarrierMetrics } from '../../../../src/delivery/worker/carrier-metrics';
import { CarriersService } from '../../../../src/delivery/worker/carriers.service';
import { HealthService } from '../../../../src/health/health.service';
import { MetricsRegistry } from '../../../../src/metrics/metrics-registry';
import { STATUS } from '../../../../src/smpp/commands';
import { SmscSimulator } from '../../../../src/smsc-sim/smsc-simulator';
import { waitFor } from './smpp-harness';

const KEY = 'cd'.repeat(32);
const secret = CarrierSecret.fromKeyText(KEY);

function row(id: number, port: number): StoredCarrier {
  const at = new Date();
  return {
    ...{ id, name: `carrier${id}`, host: '127.0.0.1', port, tls: false, systemId: 'esme', passwordSealed: secret.seal('pw-12345') },
    ...{ binds: 1, window: 10, tpsPerBind: 0, alphaTon: 5, alphaNpi: 0, numericTon: 1, numericNpi: 1, enabled: true, createdAt: at, updatedAt: at },
  };
}

/** The value of one series in Prometheus text (0 when absent is NOT assumed: absent is undefined). */
function series(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.split(',').every((kv) => l.includes(kv)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('Two carriers as operators see them (/metrics, /health, carrier:status)', () => {
  let sims: SmscSimulator[];
  let service: CarriersService;
  let registry: MetricsRegistry;
  const published: PublishedWorker[] = [];

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    sims = [0, 1].map(() => new SmscSimulator({ systemId: 'esme', password: 'pw-12345', receiptDelayMs: 10, deliverRetryMs: 50, failSuffix: '000' }));
    const ports = await Promise.all(sims.map((s) => s.start()));
    const source = { version: async () => '1', snapshot: async () => ({ version: '1', carriers: [row(1, ports[0]), row(2, ports[1])], routes: [] }) };
    const config = loadConfig({}, { carrierSecretKey: KEY, carrierReloadMs: 600_000, smppReconnectBaseMs: 20, smppReconnectMaxMs: 50, smppSubmitTimeoutMs: 2_000 });
    registry = new MetricsRegistry();
    const store = { publish: async (r: PublishedWorker) => void published.push(r), withdraw: async () => undefined } as unknown as CarrierStatusStore;
    service = new CarriersService(config, new Clock(), registry, new CarrierMetrics(registry), source as unknown as CarrierSettingsSource, store);
    service.onReceipt(() => undefined);
    await service.onModuleInit();
    await waitFor('both carriers bound', () => service.liveStatus().bindsUp === 2);
  });
  afterAll(async () => {
    await service.onApplicationShutdown();
    await Promise.all(sims.map((s) => s.stop()));
    jest.restoreAllMocks();
  });

  it('moves every per-carrier series on /metrics under each carrier label: submits, answers by status, throttles, answer latency, receipts by state, delivery ratio', async () => {
    sims[1].failNext(2, STATUS.ESME_RTHROTTLED);
    // 40 messages shared 1:1; destinations ending 000 get an UNDELIV receipt, so each carrier has both final states.
    const messages = Array.from({ length: 40 }, (_, i) => ({
      messageId: `m${i}`,
      from: 'Harbour',
      to: i % 4 < 2 ? `61412000${String(i).padStart(3, '1')}` : `6141200${String(i).padStart(2, '0')}000`,
      text: 'hello',
      encoding: 'gsm7' as const,
    }));
    const results = await service.forMessage({ isTest: false, to: '61412345678', sender: 'Harbour', accountId: 1 }).carrier.submit(messages, { mayHandOver: () => true });
    expect(results.every((r) => r.parts.every((p) => p.smscId))).toBe(true);
    await waitFor('every receipt', () => sims.reduce((n, s) => n + s.counters.receiptsAcked, 0) === 40);
    const text = await registry.registry.metrics();
    for (const carrier of ['carrier1', 'carrier2']) {
      const c = `carrier="${carrier}"`;
      expect([carrier, series(text, 'sms_carrier_submits_total', c)]).toEqual([carrier, expect.any(Number)]);
      expect(series(text, 'sms_carrier_submits_total', c)).toBeGreaterThanOrEqual(20);
      // carrier2's 2 throttled parts went again through carrier1 (another member is preferred).
      expect(series(text, 'sms_carrier_answers_total', `${c},status="ok"`)).toBeGreaterThanOrEqual(18);
      expect(series(text, 'sms_carrier_answer_seconds_count', c)).toBe(series(text, 'sms_carrier_submits_total', c));
      expect(series(text, 'sms_carrier_receipts_total', `${c},state="delivered"`)).toBeGreaterThan(0);
      expect(series(text, 'sms_carrier_receipts_total', `${c},state="failed"`)).toBeGreaterThan(0);
      const ratio = series(text, 'sms_carrier_delivery_ratio', c)!;
      expect(ratio).toBeGreaterThan(0);
      expect(ratio).toBeLessThan(1);
      expect(series(text, 'sms_carrier_binds', `${c},state="up"`)).toBe(1);
      expect(series(text, 'sms_carrier_up', c)).toBe(1);
    }
    expect(series(text, 'sms_carrier_throttles_total', 'carrier="carrier2"')).toBe(2);
    expect(series(text, 'sms_carrier_throttles_total', 'carrier="carrier1"')).toBe(0);
    expect(series(text, 'sms_carrier_answers_total', 'carrier="carrier2",status="throttled"')).toBe(2);
    expect(series(text, 'sms_carrier_submits_total', 'carrier="carrier1"')! + series(text, 'sms_carrier_submits_total', 'carrier="carrier2"')!).toBe(42);
  });

  it('prints per carrier in carrier:status: binds, window use, submits a second and error share', async () => {
    published.length = 0;
    sims[1].failNext(1, STATUS.ESME_RTHROTTLED);
    const messages = Array.from({ length: 10 }, (_, i) => ({ messageId: `s${i}`, from: 'Harbour', to: `614130000${i}1`, text: 'status', encoding: 'gsm7' as const }));
    await service.forMessage({ isTest: false, to: '61413000011', sender: 'Harbour', accountId: 1 }).carrier.submit(messages, { mayHandOver: () => true });
    const submitsReported = () => published.reduce((n, r) => n + r.carriers.reduce((m, c) => m + c.submits, 0), 0);
    await waitFor('the campaign in the status reports', () => submitsReported() >= 11, 10_000);
    const lines = published.map((r) => summarise([r]));
    for (const summary of lines) {
      expect(summary.carriers.map((c) => [c.carrier, c.state, c.binds])).toEqual([
        ['carrier1', 'up', '1/1 up'],
        ['carrier2', 'up', '1/1 up'],
      ]);
      for (const c of summary.carriers) expect(c.window_use).toMatch(/^\d+\/10$/);
    }
    const seen = (carrier: string, f: (c: (typeof lines)[number]['carriers'][number]) => number) =>
      Math.max(...lines.map((l) => f(l.carriers.find((c) => c.carrier === carrier)!)));
    expect(seen('carrier1', (c) => c.submits_per_second)).toBeGreaterThan(0);
    expect(seen('carrier2', (c) => c.submits_per_second)).toBeGreaterThan(0);
    expect(seen('carrier2', (c) => c.error_share)).toBeGreaterThan(0);
    expect(seen('carrier1', (c) => c.error_share)).toBe(0);
    expect(lines[0].waiting).toEqual({ messages: 0, parts: 0 });
  });

  it('lists each carrier on /health and stays degraded, not failed, with one of the two down', async () => {
    const health = new HealthService(
      { ping: async () => true } as never,
      { ping: async () => true } as never,
      { snapshot: async () => ({ queue: 0, oldestDueSeconds: 0 }), isStalled: () => false } as never,
      { status: () => service.liveStatus() },
    );
    expect((await health.check()).status).toBe('ok');
    await sims[1].stop();
    await waitFor('carrier2 down', () => service.liveStatus().carriers.some((c) => c.name === 'carrier2' && c.state === 'down'));
    const report = await health.check();
    expect(report.status).toBe('degraded');
    expect(report.problems).toEqual(['carrier carrier2 is down (binds)']);
    expect(report.carrier?.carriers.map((c) => [c.name, c.state, c.reason, c.binds_up, c.binds_configured])).toEqual([
      ['carrier1', 'up', null, 1, 1],
      ['carrier2', 'down', 'binds', 0, 1],
    ]);
  });
});
