import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type ConsentChange = 'opt_in' | 'opt_out';
/** How the standing changed: a STOP reply, a keyword rule, START, the opt-out link, the API, the dashboard, an import. */
export type ConsentSource = 'reply' | 'keyword' | 'start' | 'link' | 'api' | 'dashboard' | 'import';

/** One change of a number's standing with an account; append-only (a trigger refuses updates and deletes). */
@Entity({ name: 'consent_records' })
@Check('consent_records_number_check', "number ~ '^614[0-9]{8}$'")
@Check('consent_records_change_check', "change IN ('opt_in', 'opt_out')")
@Check('consent_records_source_check', "source IN ('reply', 'keyword', 'start', 'link', 'api', 'dashboard', 'import')")
@Index('consent_records_account_number_idx', ['accountId', 'number', 'recordedAt'])
@Index('consent_records_account_recorded_idx', ['accountId', 'recordedAt'])
export class ConsentRecord {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'consent_records_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'number', type: 'text' })
  number: string;

  @Column({ name: 'change', type: 'text' })
  change: ConsentChange;

  @Column({ name: 'source', type: 'text' })
  source: ConsentSource;

  /** Evidence: the reply that made the change. */
  @Column({ name: 'inbound_message_id', type: 'uuid', nullable: true })
  inboundMessageId: string | null;

  /** Evidence: the message whose opt-out link was used. */
  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId: string | null;

  /** Evidence: the address the opt-out page or dashboard was used from. */
  @Column({ name: 'client_address', type: 'text', nullable: true })
  clientAddress: string | null;

  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  /** What else says how (the keyword, the list joined). */
  @Column({ name: 'detail', type: 'text', nullable: true })
  detail: string | null;

  @Column({ name: 'recorded_at', type: 'timestamptz', default: () => 'now()' })
  recordedAt: Date;
}
