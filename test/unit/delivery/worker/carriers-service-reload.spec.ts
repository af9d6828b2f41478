/**
 * CarriersService over the carriers table (a fake settings source) and SMSC simulators on loopback: what
 * a reload does to the messages a worker holds (carrier:update, route:add), a production worker with no
 * SMPP_*, and the in-flight bound that follows the carriers.
 */
import { Logger } from '@nestjs/common';
import { CarrierSecret } from '../../../../src/carriers/carrier-secret';
import type { CarrierSettingsSource } from '../../../../src/carriers/carrier-settings-source';
import type { StoredCarrier } from '../../../../src/carriers/carriers.repository';
import type { CarrierStatusStore } from '../../../../src/carriers/carrier-status-store';
import type { RouteRule } from '../../../../src/carriers/route-table';
import { Clock } from '../../../../src/common/time/clock';
import { loadConfig, type AppConfig } from '../../../../src/config/app-config';
import type { OutboundMessage, SubmissionResult } from '../../../../src/delivery/worker/carriers/carrier';
import { CarrierMetrics } from '../../../../src/delivery/worker/carrier-metrics';
import { CarriersService } from '../../../../src/delivery/worker/carriers.service';
import { DispatcherService, groupsOutFor } from '../../../../src/delivery/worker/dispatcher.service';
import { MetricsRegistry } from '../../../../src/metrics/metrics-registry';
import { SmscSimulator } from '../../../../src/smsc-sim/smsc-simulator';
import { waitFor } from './smpp-harness';

const KEY = 'ab'.repeat(32);
const secret = CarrierSecret.fromKeyText(KEY);
/** The key before a rotation: the worker holds it as CARRIER_SECRET_KEY_PREVIOUS. */
const OLD_KEY = 'cd'.repeat(32);
const oldSecret = CarrierSecret.fromKeyText(OLD_KEY);

class TableSource {
  carriers: StoredCarrier[] = [];
  routes: RouteRule[] = [];
  private n = 1;
  /** A change as carrier:* or route:* makes it: the version row moves. */
  changed(): void {
    this.n++;
  }
  async version(): Promise<string> {
    return String(this.n);
  }
  async snapshot() {
    return { version: String(this.n), carriers: structuredClone(this.carriers), routes: structuredClone(this.routes) };
  }
}

function row(id: number, port: number, password: string, fields: Partial<StoredCarrier> = {}): StoredCarrier {
  return {
    id,
    name: `c${id}`,
    host: '127.0.0.1',
    port,
    tls: false,
    systemId: 'esme',
    passwordSealed: secret.seal(password),
    binds: 1,
    window: 10,
    tpsPerBind: 0,
    alphaTon: 5,
    alphaNpi: 0,
    numericTon: 1,
    numericNpi: 1,
    enabled: true,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...fields,
  };
}

const live = (to: string) => ({ isTest: false, to, sender: 'Harbour', accountId: 7 });
const outbound = (n: number, to: string): OutboundMessage[] =>
  Array.from({ length: n }, (_, i) => ({ messageId: `m${i}`, from: 'Harbour', to, text: 'x'.repeat(300), encoding: 'gsm7' as const }));
const partsOf = (results: SubmissionResult[]) =>
  results.flatMap((r) => r.parts.map((p) => ({ carrierId: p.carrierId, accepted: typeof p.smscId === 'string', outcome: p.outcome ?? null })));

describe(`${CarriersService.name}: reloads keep what the worker holds`, () => {
  let simulator: SmscSimulator;
  let port: number;
  let source: TableSource;
  let service: CarriersService;
  let config: AppConfig;
  let errors: jest.SpyInstance;

  beforeEach(async () => {
    simulator = new SmscSimulator({ systemId: 'esme', password: 'right-pw', receiptDelayMs: 60_000 });
    port = await simulator.start();
    source = new TableSource();
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await service?.onApplicationShutdown();
    await simulator.stop();
    jest.restoreAllMocks();
  });

  async function startService(overrides: Partial<AppConfig> = {}): Promise<void> {
    config = loadConfig(
      {},
      {
        carrierSecretKey: KEY,
        carrierReloadMs: 600_000,
        smppSubmitTimeoutMs: 2_000,
        smppReconnectBaseMs: 20,
        smppReconnectMaxMs: 50,
        carrierHoldDownMs: 0,
        ...overrides,
      },
    );
    const registry = new MetricsRegistry();
    const store = { publish: async () => undefined, withdraw: async () => undefined } as unknown as CarrierStatusStore;
    service = new CarriersService(config, new Clock(), registry, new CarrierMetrics(registry), source as unknown as CarrierSettingsSource, store);
    await service.onModuleInit();
  }

  it('hands the parts an updated carrier held (waiting for a bind) to its new connection: carrier:update fails none', async () => {
    source.carriers = [row(1, port, 'wrong-pw')];
    await startService();
    const submitted = service.forMessage(live('61412345678')).carrier.submit(outbound(3, '61412345678'), { mayHandOver: () => true });
    await waitFor('the bind to be refused', () => simulator.counters.bindFailures >= 1);

    source.carriers = [row(1, port, 'right-pw', { updatedAt: new Date(Date.now() + 1000) })];
    source.changed();
    await service.reload();

    const parts = partsOf(await submitted);
    expect(parts).toHaveLength(6);
    expect(parts.every((p) => p.accepted && p.carrierId === 1)).toBe(true);
    expect(simulator.counters.submits).toBe(6);
  });

  it('keeps the messages waiting in a route through a reload that changed another (route:add), and sends them when their carrier is back', async () => {
    source.carriers = [row(1, port, 'wrong-pw'), row(2, port, 'wrong-pw')];
    await startService();
    const route = service.forMessage(live('61412345678'));
    const submitted = route.carrier.submit(outbound(2, '61412345678'), { mayHandOver: () => true });
    await waitFor('the messages to wait for a carrier', () => service.board.waiting().messages === 2);

    source.routes = [{ id: 5, position: 1, toFrom: '6149', toThrough: '6149', senderKind: 'any', accountId: null, members: [{ carrierId: 2, weight: 1, priority: 0 }] }];
    source.changed();
    await service.reload();
    expect(service.forMessage(live('61412345678'))).toBe(route); // the default route kept its group
    expect(service.board.waiting().messages).toBe(2);

    source.carriers = [row(1, port, 'right-pw', { updatedAt: new Date(Date.now() + 1000) }), source.carriers[1]];
    source.changed();
    await service.reload();
    const parts = partsOf(await submitted);
    expect(parts.map((p) => p.outcome)).not.toContain('withheld');
    expect(parts.every((p) => p.accepted && p.carrierId === 1)).toBe(true);
    expect(simulator.counters.submits).toBe(4);
  });

  it('starts in production with no SMPP_*, says it has no carrier, holds live messages (never the simulator), and sends them once carrier:add gives it one', async () => {
    await startService({ nodeEnv: 'production', twoFactorKey: 'k'.repeat(32) });
    expect(errors.mock.calls.map((c) => (c[0] as { msg: string }).msg)).toContainEqual(
      expect.stringContaining('no carrier: this worker has neither SMPP_* nor a carrier it can use'),
    );
    const route = service.forMessage(live('61412345678'));
    expect(route.simulated).toBe(false);
    expect(service.liveStatus()).toMatchObject({ kind: 'smpp', carriers: [] });
    const submitted = route.carrier.submit(outbound(1, '61412345678'), { mayHandOver: () => true });
    await waitFor('the message to wait for a carrier', () => service.board.waiting().messages === 1);

    source.carriers = [row(3, port, 'right-pw')];
    source.changed();
    await service.reload();
    const parts = partsOf(await submitted);
    expect(parts.every((p) => p.accepted && p.carrierId === 3)).toBe(true);
  });

  it('opens a password sealed under CARRIER_SECRET_KEY_PREVIOUS (not yet resealed by carrier:rekey) and sends through it', async () => {
    source.carriers = [row(1, port, 'right-pw', { passwordSealed: oldSecret.seal('right-pw') })];
    await startService({ carrierSecretKeyPrevious: OLD_KEY });
    const parts = partsOf(await service.forMessage(live('61412345678')).carrier.submit(outbound(1, '61412345678'), { mayHandOver: () => true }));
    expect(parts.every((p) => p.accepted && p.carrierId === 1)).toBe(true);
    expect(errors.mock.calls.map((c) => JSON.stringify(c[0]))).not.toContainEqual(expect.stringContaining('cannot be opened'));
  });

  it('keeps the binds of a carrier whose password carrier:rekey resealed under the new key: the same password, so nothing drains', async () => {
    source.carriers = [row(1, port, 'right-pw', { passwordSealed: oldSecret.seal('right-pw') })];
    await startService({ carrierSecretKeyPrevious: OLD_KEY });
    await waitFor('the carrier to bind', () => service.carrierLines()[0]?.bindsUp === 1);
    const binds = simulator.counters.binds;

    source.carriers = [{ ...source.carriers[0], passwordSealed: secret.seal('right-pw'), updatedAt: new Date(Date.now() + 1000) }];
    source.changed();
    await service.reload();
    expect(service.carrierLines()).toEqual([expect.objectContaining({ id: 1, state: 'up', bindsUp: 1 })]);
    expect(simulator.counters.binds).toBe(binds);

    // A new password is a new connection, as before.
    source.carriers = [{ ...source.carriers[0], passwordSealed: secret.seal('other-pw'), updatedAt: new Date(Date.now() + 2000) }];
    source.changed();
    await service.reload();
    expect(service.carrierLines().map((l) => l.state)).toContain('draining');
  });

  it("sizes the dispatcher's in-flight bound by the carriers it has (binds × window of each), again after every reload", async () => {
    source.carriers = [row(1, port, 'right-pw', { binds: 2, window: 25 }), row(2, port, 'right-pw', { binds: 1, window: 50 })];
    await startService({ smppBinds: 4, smppWindow: 100 });
    const dispatcher = new DispatcherService({} as never, {} as never, service, {} as never, config, new Clock());
    expect(service.windowTotal()).toBe(100);
    expect(dispatcher.groupsOutLimit).toBe(groupsOutFor(100));

    source.carriers = [...source.carriers, row(3, port, 'right-pw', { binds: 4, window: 200 })];
    source.changed();
    await service.reload();
    expect(service.windowTotal()).toBe(900);
    expect(dispatcher.groupsOutLimit).toBe(groupsOutFor(900));
    expect(groupsOutFor(900)).toBe(180);
  });
});
