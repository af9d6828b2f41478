import { formatUtc } from '../common/time/format';
import { shortUrlOf } from './link-rewriter';
import type { LinkClickRow } from './links.repository';

export interface LinkClickView {
  message_id: string;
  to: string;
  url: string;
  short_url: string;
  clicks: number;
  first_clicked_at: string | null;
  last_clicked_at: string | null;
}

/** A row of GET /v1/link-clicks (supplement: Link tracking). */
export function toLinkClickView(row: LinkClickRow, base: string): LinkClickView {
  return {
    message_id: row.message_id,
    to: row.recipient,
    url: row.url,
    short_url: shortUrlOf(base, 'url', row.code),
    clicks: row.clicks,
    first_clicked_at: row.first_clicked_at ? formatUtc(row.first_clicked_at) : null,
    last_clicked_at: row.last_clicked_at ? formatUtc(row.last_clicked_at) : null,
  };
}
