/** What /health shows of the carrier, where the delivery workers run in the same process. */
export interface CarrierStatus {
  kind: 'smpp' | 'simulator';
  bindsConfigured: number;
  bindsUp: number;
  inFlight: number;
}

/** Injection token the delivery worker provides; absent in an API-only process. */
export const CARRIER_STATUS = Symbol('CARRIER_STATUS');

export interface CarrierStatusReader {
  status(): CarrierStatus;
}
