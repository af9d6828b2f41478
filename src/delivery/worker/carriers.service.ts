import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CarrierSettingsSource } from '../../carriers/carrier-settings-source';
import { CarrierStatusStore, type PublishedCarrier } from '../../carriers/carrier-status-store';
import { DEFAULT_ROUTE_ID, RoutePlan, type PlannedRoute } from '../../carriers/route-plan';
import type { RouteRule } from '../../carriers/route-table';
import { RepeatedLines } from '../../common/logging/repeated-lines';
import { Clock } from '../../common/time/clock';
import { AppConfig } from '../../config/app-config';
import { MetricsRegistry } from '../../metrics/metrics-registry';
import type { CarrierStatus } from '../status/carrier-state';
import type { Carrier, DeliveryReceipt, InboundSms } from './carriers/carrier';
import { SIMULATED_CARRIER_ID } from '../../carriers/carrier-ids';
import { CarrierGroup, type GroupMember } from './carriers/carrier-group';
import { CarrierHealthBoard } from './carriers/carrier-health-board';
import { SimulatedCarrier } from './carriers/simulated-carrier';
import { CarrierFleet } from './carrier-fleet';
import { CarrierMetrics } from './carrier-metrics';

/** A message's way out: the dispatcher groups consecutive messages with the same key. */
export interface MessageRoute {
  /** The route's id (0 the default route), or SIMULATED_CARRIER_ID for the simulator. */
  key: number;
  carrier: Carrier;
  simulated: boolean;
}

export interface RoutedMessage {
  isTest: boolean;
  to: string;
  sender: string;
  accountId: number;
}

/** Workers report their carriers this often (carrier:status reads it). */
const PUBLISH_MS = 2000;

/**
 * The carriers of this worker and the routes over them. Test accounts always use the simulator. Live
 * messages take the route the route table gives them (one CarrierGroup per route over the shared SMPP
 * carriers and one health board). With no carrier at all: in development the simulator; in production
 * the default route with no member, where live messages wait for a carrier to be added. The log says
 * which, each time the worker comes to have no carrier.
 *
 * The table is reloaded when its version row moves (CARRIER_RELOAD_MS), so carrier:* and route:* take
 * effect without a restart. A reload touches only what changed: a route keeps its group (and the
 * messages waiting in it) and gets its new members; only a route that is gone closes its group, whose
 * waiting messages go back to be claimed again.
 */
@Injectable()
export class CarriersService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CarriersService.name);
  private readonly worker = randomUUID();
  readonly simulated = new SimulatedCarrier();
  readonly board: CarrierHealthBoard;
  private readonly fleet: CarrierFleet;
  private readonly simulatedRoute: MessageRoute = { key: SIMULATED_CARRIER_ID, carrier: this.simulated, simulated: true };
  private plan: RoutePlan;
  private routes = new Map<number, MessageRoute>();
  private version: string | null = null;
  private timers: NodeJS.Timeout[] = [];
  private readonly failures = new RepeatedLines((msg, meta) => this.logger.warn({ msg, ...meta }));
  /** Whether the log last said this worker has no carrier (said again each time it comes to have none). */
  private saidNoCarrier = false;
  private lastPublish = Date.now();
  private readonly changeListeners: Array<() => void> = [];

  constructor(
    private readonly config: AppConfig,
    clock: Clock,
    registry: MetricsRegistry,
    private readonly metrics: CarrierMetrics,
    private readonly source: CarrierSettingsSource,
    private readonly statusStore: CarrierStatusStore,
  ) {
    this.board = new CarrierHealthBoard({
      downErrorShare: config.carrierDownErrorPercent / 100,
      errorWindowMs: config.carrierErrorWindowMs,
      minSubmits: config.carrierErrorMinSubmits,
      holdDownMs: config.carrierHoldDownMs,
      holdDownMaxMs: config.carrierHoldDownMaxMs,
    });
    const log = (level: 'log' | 'warn' | 'error') => (msg: string, meta?: Record<string, unknown>) => this.logger[level]({ msg, ...meta });
    this.fleet = new CarrierFleet(config, this.board, metrics, clock, { info: log('log'), warn: log('warn'), error: log('error') });
    this.plan = this.rebuild([], false);
    registerGauges(registry, () => this.carrierLines());
  }

  async onModuleInit(): Promise<void> {
    // The first snapshot before any dispatch; PostgreSQL down now only delays the table's carriers.
    await this.reload().catch((err: Error) => this.failures.note('carrier settings not read; retrying', { err: err.message }));
    this.fleet.start();
    this.timers.push(
      setInterval(() => void this.reload().catch((err: Error) => this.failures.note('carrier settings not read; retrying', { err: err.message })), this.config.carrierReloadMs),
    );
    this.timers.push(setInterval(() => void this.publish().catch((err: Error) => this.failures.note('carrier status not published', { err: err.message })), PUBLISH_MS));
    for (const t of this.timers) t.unref();
  }

  /** Receipts of every carrier, present and future (acknowledged to the SMSC after the handler resolves). */
  onReceipt(handler: (r: DeliveryReceipt) => void | Promise<void>): void {
    this.fleet.setHandlers({ receipt: handler });
  }

  onInbound(handler: (m: InboundSms) => void | Promise<void>): void {
    this.fleet.setHandlers({ inbound: handler });
  }

  /** Called after every reload that changed the carriers or routes (the dispatcher sizes its in-flight bound by windowTotal()). */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /**
   * Unanswered submit_sm this worker's carriers may hold in all (Σ binds × window of the carriers in
   * service). With none (the simulator, or waiting for one): SMPP_BINDS × SMPP_WINDOW, as a notional window.
   */
  windowTotal(): number {
    return this.fleet.windowTotal() || this.config.smppBinds * this.config.smppWindow;
  }

  /** Hot path: a map lookup and a few prefix comparisons, no query. Test accounts never reach a carrier. */
  forMessage(m: RoutedMessage): MessageRoute {
    if (m.isTest) return this.simulatedRoute;
    const planned = this.plan.routeFor(m.to, m.sender, m.accountId);
    return this.routes.get(planned.id) ?? this.simulatedRoute;
  }

  /** Reads the version row; when it moved, the snapshot, and rebinds and regroups what changed. */
  async reload(): Promise<void> {
    const version = await this.source.version();
    if (version === this.version) return;
    const snapshot = await this.source.snapshot();
    this.fleet.apply(snapshot.carriers);
    this.plan = this.rebuild(snapshot.routes);
    this.version = snapshot.version;
    this.logger.log({ msg: 'carrier settings loaded', version: snapshot.version, carriers: this.fleet.all().map((c) => c.name), routes: snapshot.routes.length });
    for (const listener of this.changeListeners) listener();
  }

  /** The routes of the new plan: a route that stays keeps its group (given its new members); a route gone closes its group. */
  private rebuild(rules: RouteRule[], sayIfNone = true): RoutePlan {
    const plan = new RoutePlan(rules, this.fleet.ids());
    // Production never hands live messages to the simulator: with no carrier they wait in the default route.
    const waitForCarriers = this.config.nodeEnv === 'production';
    const next = new Map<number, MessageRoute>();
    for (const planned of plan.routes()) {
      if (planned.members.length === 0 && !(waitForCarriers && planned.id === DEFAULT_ROUTE_ID)) continue;
      const members = planned.members.map((m) => ({ carrier: this.fleet.get(m.carrierId)!, weight: m.weight, priority: m.priority }));
      const kept = this.routes.get(planned.id);
      if (kept) (kept.carrier as CarrierGroup).setMembers(members);
      next.set(planned.id, kept ?? this.routeOf(planned, members));
    }
    // Messages waiting in a group that is gone resolve as withheld and are claimed again (by the new plan).
    for (const [id, route] of this.routes) if (!next.has(id)) void route.carrier.close();
    this.routes = next;
    if (sayIfNone) this.sayIfNoCarrier(waitForCarriers);
    return plan;
  }

  private sayIfNoCarrier(waitForCarriers: boolean): void {
    const none = this.fleet.all().length === 0;
    if (none && !this.saidNoCarrier) {
      if (waitForCarriers) {
        this.logger.error({
          msg: 'no carrier: this worker has neither SMPP_* nor a carrier it can use in the carriers table (carrier:add; CARRIER_SECRET_KEY opens their passwords); live messages wait until one is added',
        });
      } else {
        this.logger.warn({ msg: 'no carrier (SMPP_* or carrier:add): live accounts use the simulator; nothing reaches a carrier' });
      }
    } else if (!none && this.saidNoCarrier) {
      this.logger.log({ msg: 'carriers available again', carriers: this.fleet.all().map((c) => c.name) });
    }
    this.saidNoCarrier = none;
  }

  private routeOf(planned: PlannedRoute, members: GroupMember[]): MessageRoute {
    const name = planned.rule ? `route ${planned.id}` : 'default route';
    return { key: planned.id, carrier: new CarrierGroup(members, this.board, { retryAttempts: this.config.carrierRetryAttempts, id: planned.id, name }), simulated: false };
  }

  /** Each carrier as this worker sees it (health, binds, window), the draining ones too. */
  carrierLines(): Array<Omit<PublishedCarrier, 'submits' | 'answers' | 'errors' | 'intervalMs'>> {
    const views = new Map(this.board.view().map((v) => [v.id, v]));
    const line = (c: Carrier, draining: boolean) => {
      const s = c.state();
      const view = views.get(c.id);
      const bindsUp = s.bindsUp;
      const state: PublishedCarrier['state'] = draining ? 'draining' : view ? view.state : bindsUp > 0 ? 'up' : 'down';
      return {
        id: c.id,
        name: c.name,
        state,
        reason: draining ? null : (view?.reason ?? null),
        bindsUp,
        bindsConfigured: s.bindsConfigured,
        inFlight: s.inFlight,
        windowSize: s.bindsConfigured * this.fleet.windowOf(c),
      };
    };
    return [...this.fleet.all().map((c) => line(c, false)), ...[...this.fleet.draining].map((c) => line(c, true))];
  }

  /** What /health shows: every carrier, their sum, and the messages waiting because every carrier of their route is down. */
  liveStatus(): CarrierStatus {
    const carriers = this.carrierLines();
    const sum = (f: (c: (typeof carriers)[number]) => number) => carriers.reduce((s, c) => s + f(c), 0);
    return {
      // In production nothing is simulated: no carrier there means live messages wait (/health says so).
      kind: carriers.length === 0 && this.config.nodeEnv !== 'production' ? 'simulator' : 'smpp',
      bindsConfigured: sum((c) => c.bindsConfigured),
      bindsUp: sum((c) => c.bindsUp),
      inFlight: sum((c) => c.inFlight),
      carriers: carriers.map((c) => ({ id: c.id, name: c.name, state: c.state, reason: c.reason, bindsConfigured: c.bindsConfigured, bindsUp: c.bindsUp, inFlight: c.inFlight })),
      waiting: this.board.waiting(),
    };
  }

  private async publish(): Promise<void> {
    const now = Date.now();
    const intervalMs = now - this.lastPublish;
    this.lastPublish = now;
    const carriers = this.carrierLines().map((c) => {
      const counts = this.metrics.takeInterval(c.id);
      return { ...c, submits: counts.submits, answers: counts.answers, errors: counts.errors, intervalMs };
    });
    await this.statusStore.publish({ worker: this.worker, at: now, waiting: this.board.waiting(), carriers });
  }

  async onApplicationShutdown(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.statusStore.withdraw(this.worker).catch(() => undefined);
    for (const route of this.routes.values()) await route.carrier.close();
    await this.fleet.closeAll();
  }
}

function registerGauges(registry: MetricsRegistry, lines: () => ReturnType<CarriersService['carrierLines']>): void {
  registry.gauge('sms_carrier_binds', 'SMPP binds configured and up, by carrier', ['carrier', 'state'], function () {
    this.reset();
    for (const c of lines()) {
      this.set({ carrier: c.name, state: 'configured' }, c.bindsConfigured);
      this.set({ carrier: c.name, state: 'up' }, c.bindsUp);
    }
  });
  registry.gauge('sms_carrier_in_flight_parts', 'Parts submitted and awaiting submit_sm_resp, by carrier', ['carrier'], function () {
    this.reset();
    for (const c of lines()) this.set({ carrier: c.name }, c.inFlight);
  });
  registry.gauge('sms_carrier_up', '1 while a carrier takes traffic (binds up, errors under CARRIER_DOWN_ERROR_PERCENT, hold-down served), else 0', ['carrier'], function () {
    this.reset();
    for (const c of lines()) this.set({ carrier: c.name }, c.state === 'up' ? 1 : 0);
  });
}
