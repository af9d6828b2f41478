import { formatUtc } from '../../common/time/format';
import type { RegistrationState, SenderRegistration } from './sender-registration.entity';

export interface RegistrationView {
  registration_id: number;
  sender: string;
  business_name: string;
  abn: string;
  reason: string;
  state: RegistrationState;
  rejection_reason: string | null;
  submitted_at: string;
  decided_at: string | null;
}

export function toRegistrationView(r: SenderRegistration): RegistrationView {
  return {
    registration_id: r.id,
    sender: r.sender,
    business_name: r.businessName,
    abn: r.abn,
    reason: r.reason,
    state: r.state,
    rejection_reason: r.rejectionReason,
    submitted_at: formatUtc(r.submittedAt),
    decided_at: r.decidedAt ? formatUtc(r.decidedAt) : null,
  };
}

/** POST /v1/sender-registrations: `{status, registration_id, sender, state}` (supplement). */
export function toRegistrationSubmitted(r: SenderRegistration) {
  return { status: 'complete' as const, registration_id: r.id, sender: r.sender, state: r.state };
}
