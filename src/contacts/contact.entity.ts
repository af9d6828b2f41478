import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'contacts' })
@Check('contacts_number_check', "number ~ '^614[0-9]{8}$'")
// One contact per number unless the account allows duplicates; also serves lookups by number.
@Index('contacts_account_number_unique', ['accountId', 'number'], { unique: true, where: 'dedupe' })
// (account_id, number, updated_at DESC): TypeORM indexes have no DESC keys, so only the migration defines its columns.
@Index('contacts_account_number_idx', { synchronize: false })
// (account_id, id DESC): TypeORM indexes have no DESC keys, so only the migration defines its columns.
@Index('contacts_account_id_idx', { synchronize: false })
// Trigram (GIN) indexes over expressions, led by account_id (contact-search.ts): only the migration can define them.
@Index('contacts_search_number_idx', { synchronize: false })
@Index('contacts_search_text_idx', { synchronize: false })
export class Contact {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'contacts_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** Normalised international digits, 61 + 9. */
  @Column({ name: 'number', type: 'text' })
  number: string;

  @Column({ name: 'first_name', type: 'text', default: '' })
  firstName: string;

  @Column({ name: 'last_name', type: 'text', default: '' })
  lastName: string;

  @Column({ name: 'company', type: 'text', default: '' })
  company: string;

  @Column({ name: 'other', type: 'text', default: '' })
  other: string;

  @Column({ name: 'field_1', type: 'text', default: '' })
  field1: string;

  @Column({ name: 'field_2', type: 'text', default: '' })
  field2: string;

  @Column({ name: 'field_3', type: 'text', default: '' })
  field3: string;

  @Column({ name: 'field_4', type: 'text', default: '' })
  field4: string;

  @Column({ name: 'field_5', type: 'text', default: '' })
  field5: string;

  /** False for rows created while the account allowed duplicate numbers (outside the unique index). */
  @Column({ name: 'dedupe', type: 'boolean', default: true })
  dedupe: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
