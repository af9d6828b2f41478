import { createHash } from 'node:crypto';
import { CarrierSecret } from '../../carriers/carrier-secret';
import type { StoredCarrier } from '../../carriers/carriers.repository';
import type { AppConfig } from '../../config/app-config';
import type { Carrier, DeliveryReceipt, InboundSms } from './carriers/carrier';
import { ENV_CARRIER_ID, ENV_CARRIER_NAME } from '../../carriers/carrier-ids';
import type { CarrierHealthBoard } from './carriers/carrier-health-board';
import { SmppCarrier } from './carriers/smpp/smpp-carrier';
import type { CarrierLogger, SmppCarrierOptions } from './carriers/smpp/smpp-options';
import type { CarrierMetrics } from './carrier-metrics';

export interface FleetHandlers {
  receipt: ((r: DeliveryReceipt) => void | Promise<void>) | null;
  inbound: ((m: InboundSms) => void | Promise<void>) | null;
}

interface Leaf {
  carrier: SmppCarrier;
  /** Everything the connection is made of: a change of any means a new connection. */
  fingerprint: string;
}

/**
 * The SMPP carriers of this worker process: the SMPP_* one (id 0, fixed for the life of the process) and
 * the enabled rows of the carriers table, as the last snapshot had them. apply() binds new ones, and
 * retires removed or disabled ones: a retired carrier gives its parts not yet sent back to their routes at
 * once and waits up to SMPP_SUBMIT_TIMEOUT_MS for the answers to those it sent (those still unanswered go
 * back as in doubt), then unbinds; nothing is failed for it. An updated one is a new connection beside the
 * old, which retires the same way (its parts go to the new connection or the route's other carriers).
 */
export class CarrierFleet {
  private readonly leaves = new Map<number, Leaf>();
  /** Carriers closing after removal, disabling or an update (shown by /health and carrier:status until closed). */
  readonly draining = new Set<SmppCarrier>();
  private readonly handlers: FleetHandlers = { receipt: null, inbound: null };
  private readonly unopenable = new Set<string>();
  private readonly windows = new WeakMap<Carrier, number>();
  private started = false;

  constructor(
    private readonly config: AppConfig,
    private readonly board: CarrierHealthBoard,
    private readonly metrics: CarrierMetrics,
    private readonly clock: { now(): Date },
    private readonly logger: CarrierLogger,
  ) {
    if (config.smppHost && config.smppSystemId && config.smppPassword) {
      const options = { host: config.smppHost, port: config.smppPort, systemId: config.smppSystemId, password: config.smppPassword, tls: config.smppTls };
      this.open(ENV_CARRIER_ID, ENV_CARRIER_NAME, { ...options, binds: config.smppBinds, window: config.smppWindow, tpsPerBind: config.smppTpsPerBind }, 'env');
    }
  }

  /** Ids of the carriers that can take traffic now (the route plan's `usable`). */
  ids(): Set<number> {
    return new Set(this.leaves.keys());
  }

  get(id: number): Carrier | undefined {
    return this.leaves.get(id)?.carrier;
  }

  all(): SmppCarrier[] {
    return [...this.leaves.values()].map((l) => l.carrier);
  }

  /** Unanswered submit_sm a bind of this carrier may hold. */
  windowOf(carrier: Carrier): number {
    return this.windows.get(carrier) ?? 0;
  }

  /** Unanswered submit_sm the carriers in service may hold in all: Σ binds × window. */
  windowTotal(): number {
    return this.all().reduce((sum, c) => sum + c.state().bindsConfigured * this.windowOf(c), 0);
  }

  /** Receipts and inbound messages of every carrier, present and future, go to these handlers. */
  setHandlers(handlers: Partial<FleetHandlers>): void {
    Object.assign(this.handlers, handlers);
  }

  /** Brings the table's carriers to the snapshot; returns whether anything changed. */
  apply(rows: StoredCarrier[]): boolean {
    const enabled = rows.filter((r) => r.enabled);
    const wanted = new Map<number, { row: StoredCarrier; password: string; fingerprint: string }>();
    for (const row of enabled) {
      const password = this.openPassword(row);
      if (password !== null) wanted.set(row.id, { row, password, fingerprint: fingerprintOf(row, password) });
    }
    let changed = false;
    for (const [id, leaf] of this.leaves) {
      if (id === ENV_CARRIER_ID) continue;
      if (wanted.get(id)?.fingerprint === leaf.fingerprint) continue;
      this.leaves.delete(id);
      this.board.forget(id);
      this.drain(leaf.carrier, wanted.has(id) ? 'updated' : enabled.some((r) => r.id === id) ? 'its password cannot be opened' : 'removed or disabled');
      changed = true;
    }
    for (const [id, { row, password, fingerprint }] of wanted) {
      if (this.leaves.has(id)) continue;
      this.open(
        id,
        row.name,
        { host: row.host, port: row.port, systemId: row.systemId, password, tls: row.tls, binds: row.binds, window: row.window, tpsPerBind: row.tpsPerBind },
        fingerprint,
        {
          alphanumeric: { ton: row.alphaTon, npi: row.alphaNpi },
          numeric: { ton: row.numericTon, npi: row.numericNpi },
        },
      );
      changed = true;
    }
    return changed;
  }

  async closeAll(): Promise<void> {
    const closing = [...this.all(), ...this.draining].map((c) => c.close());
    this.leaves.clear();
    await Promise.allSettled(closing);
  }

  private open(
    id: number,
    name: string,
    connection: Pick<SmppCarrierOptions, 'host' | 'port' | 'systemId' | 'password' | 'tls' | 'binds' | 'window' | 'tpsPerBind'>,
    fingerprint: string,
    sourceAddressing?: SmppCarrierOptions['sourceAddressing'],
  ): void {
    const c = this.config;
    const carrier = new SmppCarrier({
      ...connection,
      id,
      name,
      enquireLinkMs: c.smppEnquireLinkMs,
      enquireLinkTimeoutMs: c.smppEnquireLinkTimeoutMs,
      reconnectBaseMs: c.smppReconnectBaseMs,
      reconnectMaxMs: c.smppReconnectMaxMs,
      submitTimeoutMs: c.smppSubmitTimeoutMs,
      clock: this.clock,
      logger: withCarrier(this.logger, name),
      sourceAddressing,
      observer: this.metrics.observerFor(id, name),
    });
    carrier.onReceipt(async (r) => {
      await this.handlers.receipt?.(r);
      this.metrics.receiptStored(name, r.state);
    });
    carrier.onInbound((m) => this.handlers.inbound?.(m));
    this.leaves.set(id, { carrier, fingerprint });
    this.windows.set(carrier, connection.window);
    this.board.register(carrier);
    if (this.started) this.bind(carrier);
  }

  /** Binds every carrier opened so far and, from now on, each as it is opened (after the handlers are set). */
  start(): void {
    this.started = true;
    for (const carrier of this.all()) this.bind(carrier);
  }

  private bind(carrier: SmppCarrier): void {
    const name = carrier.name;
    // Binds come up in the background and keep retrying; a failure is logged and shown by /health.
    carrier.start().then(
      () => this.logger.info('SMPP bound', { carrier: name, state: carrier.state() }),
      (err: Error) => this.logger.error('SMPP bind failed; retrying in the background', { carrier: name, err: err.message }),
    );
  }

  private drain(carrier: SmppCarrier, why: string): void {
    this.logger.info('carrier draining: its parts not yet sent go back to their routes, those out are answered, then it unbinds', { carrier: carrier.name, why });
    this.draining.add(carrier);
    void carrier.retire().finally(() => {
      this.draining.delete(carrier);
      this.logger.info('carrier closed', { carrier: carrier.name });
    });
  }

  /** The row's password, or null (said once per row version) when it cannot be opened here. */
  private openPassword(row: StoredCarrier): string | null {
    const said = `${row.id}:${row.updatedAt.getTime()}`;
    try {
      if (!this.config.carrierSecretKey) throw new Error('CARRIER_SECRET_KEY is not set in this worker');
      return CarrierSecret.fromKeyText(this.config.carrierSecretKey, this.config.carrierSecretKeyPrevious).open(row.passwordSealed);
    } catch (err) {
      if (!this.unopenable.has(said)) {
        this.unopenable.add(said);
        this.logger.error('carrier password cannot be opened; the carrier is not used', { carrier: row.name, err: (err as Error).message });
      }
      return null;
    }
  }
}

/**
 * The password counts by what it is, not by how it is sealed (a digest, so the fingerprint holds no copy):
 * carrier:rekey reseals every password with a fresh iv under a new key, and that must not rebind them all.
 */
function fingerprintOf(row: StoredCarrier, password: string): string {
  const { name, host, port, tls, systemId, binds, window, tpsPerBind, alphaTon, alphaNpi, numericTon, numericNpi } = row;
  const secret = createHash('sha256').update(password).digest('base64');
  return JSON.stringify([name, host, port, tls, systemId, secret, binds, window, tpsPerBind, alphaTon, alphaNpi, numericTon, numericNpi]);
}

function withCarrier(logger: CarrierLogger, carrier: string): CarrierLogger {
  return {
    info: (msg, meta) => logger.info(msg, { carrier, ...meta }),
    warn: (msg, meta) => logger.warn(msg, { carrier, ...meta }),
    error: (msg, meta) => logger.error(msg, { carrier, ...meta }),
  };
}
