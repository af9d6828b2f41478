import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { LinkKind } from './link-rewriter';

/** A link made for one recipient of one message (the message's `to_number`): a shortened URL or a per-recipient opt-out link. */
@Entity({ name: 'short_links' })
@Check('short_links_kind_check', "kind IN ('url', 'optout')")
@Check('short_links_url_check', "((kind = 'url') = (url IS NOT NULL))")
// BRIN on send_id: TypeORM cannot declare the method, so only the migration defines it.
@Index('short_links_send_idx', { synchronize: false })
export class ShortLink {
  /** Compared bytewise (COLLATE "C"): codes are ASCII, and the random inserts skip locale collation. */
  @PrimaryColumn({ name: 'code', type: 'text', collation: 'C' })
  code: string;

  /** No foreign keys (see the migration): written only by the send that writes the account's messages. */
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'send_id', type: 'bigint' })
  sendId: number;

  /** Written just before the message, in the same transaction. */
  @Column({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @Column({ name: 'kind', type: 'text' })
  kind: LinkKind;

  @Column({ name: 'url', type: 'text', nullable: true })
  url: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Folded from link_click_events (never updated per click). */
  @Column({ name: 'clicks', type: 'integer', default: 0 })
  clicks: number;

  @Column({ name: 'first_clicked_at', type: 'timestamptz', nullable: true })
  firstClickedAt: Date | null;

  @Column({ name: 'last_clicked_at', type: 'timestamptz', nullable: true })
  lastClickedAt: Date | null;

  /** Link-preview fetchers, carrier scanners and HEAD requests: recorded, never counted as clicks. */
  @Column({ name: 'preview_hits', type: 'integer', default: 0 })
  previewHits: number;
}
