import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * How many messages an account has in one month of message ids (its partition of `messages`). Written only
 * by triggers on `messages` and by the partition maintenance (migration MessageCounts): the unfiltered
 * history's `total` is their sum.
 */
@Entity({ name: 'message_counts' })
export class MessageCount {
  @ForeignKey('Account', { name: 'message_counts_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The first day of the UTC month of the message ids counted. */
  @PrimaryColumn({ name: 'month', type: 'date' })
  month: string;

  @Column({ name: 'messages', type: 'bigint' })
  messages: number;
}
