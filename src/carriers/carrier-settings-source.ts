import { Injectable } from '@nestjs/common';
import { CarriersRepository, CarrierSettingsSnapshot } from './carriers.repository';

/**
 * What a worker reads to route: the version row (polled) and, when it moved, the snapshot. Polling one
 * row every CARRIER_RELOAD_MS rather than LISTEN/NOTIFY: no dedicated connection to keep and re-listen
 * after a PostgreSQL restart, no notification lost while disconnected (the next poll sees the version),
 * and a change made by hand in psql is seen too (the trigger bumps the version for any write).
 */
@Injectable()
export class CarrierSettingsSource {
  constructor(private readonly carriers: CarriersRepository) {}

  version(): Promise<string> {
    return this.carriers.version();
  }

  snapshot(): Promise<CarrierSettingsSnapshot> {
    return this.carriers.snapshot();
  }
}
