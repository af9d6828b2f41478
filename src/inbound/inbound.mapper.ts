import { formatUtc } from '../common/time/format';
import type { InboundRow, InboundType } from './inbound.repository';

export interface InboundView {
  message_id: string;
  from: string;
  to: string;
  message: string;
  received_at: string;
  type: InboundType;
  original_message_id: string;
  original_custom_ref: string;
}

export const toInboundView = (r: InboundRow): InboundView => ({
  message_id: r.id,
  from: r.from_number,
  to: r.to_number,
  message: r.body,
  received_at: formatUtc(r.received_at),
  type: r.type,
  original_message_id: r.original_message_id ?? '',
  original_custom_ref: r.original_custom_ref ?? '',
});

export const toTestInboundResult = (stored: { id: string; type: InboundType }) => ({ status: 'complete' as const, message_id: stored.id, type: stored.type });
