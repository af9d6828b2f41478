import type { OwnMobileRegistered } from './own-mobile/own-mobile.service';

/** POST /v1/senders (supplement: Own mobile as sender). */
export function toOwnSenderRegistered(r: OwnMobileRegistered) {
  return {
    status: 'complete' as const,
    sender: r.number,
    type: 'own' as const,
    verification: 'pending' as const,
    ...(r.testConfirmationUrl ? { test_confirmation_url: r.testConfirmationUrl } : {}),
  };
}

export function toSenderRemoved(r: { sender: string; type: string }) {
  return { status: 'complete' as const, sender: r.sender, type: r.type, removed: true as const };
}
