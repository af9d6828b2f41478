import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'contacts' })
export class Contact {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

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
