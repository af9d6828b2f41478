import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** draft: uploaded on the page, mapping not chosen yet; queued → running → complete | failed. */
export type ContactImportState = 'draft' | 'queued' | 'running' | 'complete' | 'failed';
export type ContactImportOrigin = 'api' | 'dashboard' | 'cli';

@Entity({ name: 'contact_imports' })
@Check('contact_imports_state_check', "state IN ('draft', 'queued', 'running', 'complete', 'failed')")
@Check('contact_imports_origin_check', "origin IN ('api', 'dashboard', 'cli')")
@Index('contact_imports_account_idx', ['accountId', 'id'])
@Index('contact_imports_unfinished_idx', ['id'], { where: "state IN ('queued', 'running')" })
@Index('contact_imports_finished_idx', ['finishedAt'], { where: 'finished_at IS NOT NULL' })
export class ContactImport {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'contact_imports_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey('ContactList', { name: 'contact_imports_list_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'list_id', type: 'bigint', nullable: true })
  listId: number | null;

  @Column({ name: 'state', type: 'text' })
  state: ContactImportState;

  @Column({ name: 'origin', type: 'text' })
  origin: ContactImportOrigin;

  @Column({ name: 'file_name', type: 'text', default: '' })
  fileName: string;

  /** The file until the import finishes (then emptied). */
  @Column({ name: 'csv', type: 'text' })
  csv: string;

  /** Contact field → CSV column header; null: the headers are the field names. */
  @Column({ name: 'mapping', type: 'jsonb', nullable: true })
  mapping: Record<string, string> | null;

  /** Data lines in the file (the header excluded). */
  @Column({ name: 'total_rows', type: 'integer', default: 0 })
  totalRows: number;

  /** Lines left to write once invalid lines and repeats are set aside. */
  @Column({ name: 'valid_rows', type: 'integer', default: 0 })
  validRows: number;

  /** Valid rows written so far: the resume point, moved in the transaction that writes them. */
  @Column({ name: 'processed_rows', type: 'integer', default: 0 })
  processedRows: number;

  @Column({ name: 'added', type: 'integer', default: 0 })
  added: number;

  @Column({ name: 'updated', type: 'integer', default: 0 })
  updated: number;

  @Column({ name: 'added_to_list', type: 'integer', default: 0 })
  addedToList: number;

  @Column({ name: 'invalid', type: 'jsonb', default: () => "'[]'" })
  invalid: unknown[];

  @Column({ name: 'duplicates', type: 'jsonb', default: () => "'[]'" })
  duplicates: unknown[];

  @Column({ name: 'opted_out', type: 'jsonb', default: () => "'[]'" })
  optedOut: unknown[];

  @Column({ name: 'failure', type: 'text', nullable: true })
  failure: string | null;

  /** Runs started (one that crashed its worker included); past the limit the import fails. */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts: number;

  /** Why the last run failed (the failure's reason once the attempts run out). */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** How the importer says the numbers consented; set: the import records opt-in consent. */
  @Column({ name: 'consent_source', type: 'text', nullable: true })
  consentSource: string | null;

  /** Evidence of who started it: the API key (origin api) … */
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  /** … or the dashboard user (origin dashboard). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
