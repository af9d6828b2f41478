import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type UnsubscribeSource = 'api' | 'reply' | 'link';

@Entity({ name: 'unsubscribes' })
@Check('unsubscribes_number_check', "number ~ '^614[0-9]{8}$'")
@Check('unsubscribes_source_check', "source IN ('api', 'reply', 'link')")
// (account_id, created_at DESC): TypeORM indexes have no DESC keys, so only the migration defines its columns.
@Index('unsubscribes_account_created_idx', { synchronize: false })
export class Unsubscribe {
  @ForeignKey('Account', { name: 'unsubscribes_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryColumn({ name: 'number', type: 'text' })
  number: string;

  /** How the number opted out: by API, by replying STOP, or through the opt-out link. */
  @Column({ name: 'source', type: 'text' })
  source: UnsubscribeSource;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
