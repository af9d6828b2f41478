import { formatUtc } from '../common/time/format';
import type { UnsubscribeSource } from './unsubscribe.entity';
import type { UnsubscribeRow } from './unsubscribes.repository';

export interface UnsubscribeView {
  number: string;
  source: UnsubscribeSource;
  unsubscribed_at: string;
}

export const toUnsubscribeView = (row: UnsubscribeRow): UnsubscribeView => ({ number: row.number, source: row.source, unsubscribed_at: formatUtc(row.created_at) });
export const toUnsubscribeAdded = (number: string, added: boolean) => ({ status: 'complete' as const, number, added });
export const toUnsubscribeRemoved = (number: string, removed: boolean) => ({ status: 'complete' as const, number, removed });
