import { formatUtc } from '../common/time/format';
import type { FreeNumberClaim } from './free-number-claim.entity';
import { formatServiceAddress, type AuState } from './service-address';

/** POST /v1/dedicated-numbers/free. */
export function toFreeNumberClaimed(claim: FreeNumberClaim) {
  return {
    status: 'complete' as const,
    number: claim.number,
    type: 'dedicated' as const,
    service_address: formatServiceAddress({ street: claim.street, suburb: claim.suburb, state: claim.state as AuState, postcode: claim.postcode }),
    claimed_at: formatUtc(claim.claimedAt),
  };
}
