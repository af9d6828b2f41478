import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { AppConfig } from '../../config/app-config';
import { MetricsRegistry } from '../../metrics/metrics-registry';
import type { CarrierStatus } from '../status/carrier-state';
import type { Carrier } from './carriers/carrier';
import { SimulatedCarrier } from './carriers/simulated-carrier';
import { SmppCarrier } from './carriers/smpp/smpp-carrier';

/**
 * The carriers of this worker: SMPP for live accounts when an SMSC is configured, the simulator for
 * test accounts (and for live ones in development without an SMSC, which the log says at start).
 */
@Injectable()
export class CarriersService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CarriersService.name);
  readonly simulated = new SimulatedCarrier();
  readonly live: Carrier;
  readonly liveIsSimulated: boolean;

  constructor(config: AppConfig, clock: Clock, registry: MetricsRegistry) {
    if (config.smppHost && config.smppSystemId && config.smppPassword) {
      const log = (level: 'info' | 'warn' | 'error') => (msg: string, meta?: Record<string, unknown>) => this.logger[level === 'info' ? 'log' : level]({ msg, ...meta });
      this.live = new SmppCarrier({
        host: config.smppHost,
        port: config.smppPort,
        systemId: config.smppSystemId,
        password: config.smppPassword,
        tls: config.smppTls,
        binds: config.smppBinds,
        window: config.smppWindow,
        tpsPerBind: config.smppTpsPerBind,
        enquireLinkMs: config.smppEnquireLinkMs,
        reconnectBaseMs: config.smppReconnectBaseMs,
        reconnectMaxMs: config.smppReconnectMaxMs,
        submitTimeoutMs: config.smppSubmitTimeoutMs,
        clock,
        logger: { info: log('info'), warn: log('warn'), error: log('error') },
      });
      this.liveIsSimulated = false;
    } else {
      this.live = this.simulated;
      this.liveIsSimulated = true;
    }
    const live = this.live;
    registry.gauge('sms_carrier_binds', 'SMPP binds configured and up', ['state'], function () {
      const s = live.state();
      this.set({ state: 'configured' }, s.bindsConfigured);
      this.set({ state: 'up' }, s.bindsUp);
    });
    registry.gauge('sms_carrier_in_flight_parts', 'Parts submitted and awaiting submit_sm_resp', [], function () {
      this.set(live.state().inFlight);
    });
  }

  onModuleInit(): void {
    if (this.liveIsSimulated) {
      this.logger.warn({ msg: 'no SMSC configured (SMPP_HOST, SMPP_SYSTEM_ID, SMPP_PASSWORD): live accounts use the simulator; nothing reaches a carrier' });
      return;
    }
    // Binds come up in the background and keep retrying; a failure is logged and shown by /health.
    (this.live as SmppCarrier).start().then(
      () => this.logger.log({ msg: 'SMPP bound', state: this.live.state() }),
      (err: Error) => this.logger.error({ msg: 'SMPP bind failed; retrying in the background', err: err.message }),
    );
  }

  /** What /health shows of the live carrier. */
  liveStatus(): CarrierStatus {
    const s = this.live.state();
    return { kind: this.liveIsSimulated ? 'simulator' : 'smpp', bindsConfigured: s.bindsConfigured, bindsUp: s.bindsUp, inFlight: s.inFlight };
  }

  /** Test accounts never reach a carrier. */
  forMessage(isTest: boolean): { carrier: Carrier; simulated: boolean } {
    if (isTest || this.liveIsSimulated) return { carrier: this.simulated, simulated: true };
    return { carrier: this.live, simulated: false };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.live.close();
  }
}
