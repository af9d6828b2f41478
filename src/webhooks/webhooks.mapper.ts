import { formatUtc } from '../common/time/format';
import type { AttemptRow, WebhookKind } from './webhooks.repository';

export interface WebhookSettingsView {
  status: 'complete';
  webhooks: { inbound: string; status: string };
  has_signing_secret: boolean;
}

export interface WebhookDeliveryView {
  event_id: number;
  event: WebhookKind;
  url: string;
  attempt: number;
  response_status: number | null;
  error: string;
  delivered: boolean;
  created_at: string;
}

export const toWebhookSettingsView = (s: { inbound: string; status: string; hasSecret: boolean }): WebhookSettingsView => ({
  status: 'complete',
  webhooks: { inbound: s.inbound, status: s.status },
  has_signing_secret: s.hasSecret,
});

export const toSigningSecret = (secret: string) => ({ status: 'complete' as const, signing_secret: secret });

export const toWebhookDeliveryView = (r: Omit<AttemptRow, 'id'>): WebhookDeliveryView => ({
  event_id: r.event_id,
  event: r.kind,
  url: r.url,
  attempt: r.attempt,
  response_status: r.response_status,
  error: r.error,
  delivered: r.delivered,
  created_at: formatUtc(r.created_at),
});
