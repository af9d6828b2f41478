import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** How far the account has read a thread of the inbox (the mobile's inbound messages up to `read_seq`). */
@Entity({ name: 'inbox_reads' })
export class InboxRead {
  @ForeignKey('Account', { name: 'inbox_reads_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryColumn({ name: 'mobile', type: 'text' })
  mobile: string;

  @Column({ name: 'read_seq', type: 'bigint' })
  readSeq: number;

  @Column({ name: 'read_at', type: 'timestamptz', default: () => 'now()' })
  readAt: Date;
}
