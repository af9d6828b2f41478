/** What /health shows of the carrier, where the delivery workers run in the same process. */
export interface CarrierStatus {
  kind: 'smpp' | 'simulator';
  bindsConfigured: number;
  bindsUp: number;
  inFlight: number;
  /** Each carrier of the worker (the SMPP_* one and the table's), draining ones included. */
  carriers: Array<{ id: number; name: string; state: 'up' | 'down' | 'draining'; reason: string | null; bindsConfigured: number; bindsUp: number; inFlight: number }>;
  /** Messages (and their parts) held because every carrier of their route is down. */
  waiting: { messages: number; parts: number };
}

/** Injection token the delivery worker provides; absent in an API-only process. */
export const CARRIER_STATUS = Symbol('CARRIER_STATUS');

export interface CarrierStatusReader {
  status(): CarrierStatus;
}
