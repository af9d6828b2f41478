import { describeStatus } from './commands';

/** The `carrier_error` extension field: the SMSC's command_status refusing a part, and its SMPP name. */
export interface CarrierError {
  code: number;
  description: string;
}

export function carrierError(code: number): CarrierError {
  return { code, description: describeStatus(code) };
}
