import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** A send's clicks in one quarter hour (UTC), added by the fold: clicks by the time they happened. */
@Entity({ name: 'link_click_buckets' })
@Check('link_click_buckets_clicks_check', 'clicks > 0')
export class LinkClickBucket {
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The quarter hour's start; every Australian zone's days begin on one. */
  @PrimaryColumn({ name: 'bucket', type: 'timestamptz' })
  bucket: Date;

  @PrimaryColumn({ name: 'send_id', type: 'bigint' })
  sendId: number;

  @Column({ name: 'clicks', type: 'integer' })
  clicks: number;
}
