import type { MessageStatus } from '../../messaging/message.entity';
import type { FreeNumberClaim } from '../../numbers/free-number-claim.entity';
import { AU_STATES, formatServiceAddress, type AuState } from '../../numbers/service-address';
import type { CurrentSender } from '../../sender-identity/own-mobile/pending-senders.service';
import type { RegistrationView } from '../../sender-identity/registrations/sender-registrations.mapper';
import type { SenderType } from '../../senders/sender.entity';
import { show } from '../format';

/** What the page's forms were sent with, to show them again beside an error. */
export interface SenderForms {
  own: { number: string; label: string };
  address: { street: string; suburb: string; state: string; postcode: string };
  registration: { sender: string; businessName: string; abn: string; reason: string };
}

const TYPE_LABELS: Record<SenderType, string> = { alpha: 'Sender ID', own: 'Your mobile', dedicated: 'Dedicated number', shared: 'Shared number' };

const TEXT_STATUS: Record<MessageStatus | 'unknown', string> = {
  pending: 'being sent',
  scheduled: 'being sent',
  sent: 'sent, awaiting delivery',
  delivered: 'delivered',
  failed: 'not delivered',
  cancelled: 'not sent',
  unknown: 'unknown',
};

const STATE_LABELS = { submitted: 'Awaiting review', approved: 'Approved', rejected: 'Rejected' } as const;

/** The Sender IDs page's model: plain values for the template, nothing it has to work out. */
export function sendersPageModel(input: {
  senders: CurrentSender[];
  claim: FreeNumberClaim | null;
  freeNumbersAvailable: boolean;
  registrations: RegistrationView[];
  forms: Partial<SenderForms>;
  error?: { message: string; field?: string; form: keyof SenderForms };
  timeZone: string;
}) {
  const zone = input.timeZone;
  const active = input.senders.filter((s) => s.sender.status === 'active');
  const pending = input.senders.filter((s) => s.sender.status === 'pending');
  const address = input.forms.address ?? { street: '', suburb: '', state: '', postcode: '' };
  return {
    // One form is refused at a time, so its field and error text are the page's only ones (ids are unique).
    errors: input.error ? { [input.error.form]: input.error.message } : {},
    ...(input.error?.field ? { errorField: input.error.field } : {}),
    active: active.map(({ sender }) => ({
      id: sender.id,
      value: sender.value,
      type: TYPE_LABELS[sender.type],
      label: sender.label,
      isDefault: sender.isDefault,
      removable: sender.type === 'own' || sender.type === 'alpha',
    })),
    pending: pending.map(({ sender, confirmation }) => ({
      id: sender.id,
      value: sender.value,
      label: sender.label,
      sentAt: confirmation ? show.time(confirmation.sentAt, zone) : '',
      expiresAt: confirmation ? show.time(confirmation.expiresAt, zone) : '',
      textStatus: confirmation ? TEXT_STATUS[confirmation.textStatus] : '',
    })),
    own: input.forms.own ?? { number: '', label: '' },
    freeNumber: input.claim
      ? {
          claimed: true,
          number: input.claim.number,
          address: formatServiceAddress({ street: input.claim.street, suburb: input.claim.suburb, state: input.claim.state as AuState, postcode: input.claim.postcode }),
          claimedAt: show.time(input.claim.claimedAt, zone),
        }
      : { claimed: false, available: input.freeNumbersAvailable },
    address,
    states: AU_STATES.map((state) => ({ value: state, selected: state === address.state.toUpperCase() })),
    registration: input.forms.registration ?? { sender: '', businessName: '', abn: '', reason: '' },
    registrations: input.registrations.map((r) => ({
      id: r.registration_id,
      sender: r.sender,
      businessName: r.business_name,
      state: r.state,
      stateLabel: STATE_LABELS[r.state],
      rejectionReason: r.rejection_reason,
      submittedAt: show.apiTime(r.submitted_at, zone),
      decidedAt: show.apiTime(r.decided_at, zone),
    })),
  };
}
