import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Who did what, when, from where: one row per state-changing action on an account. */
@Entity({ name: 'audit_log' })
// (account_id, id DESC): newest first per account; declared by name, as TypeORM cannot say DESC.
@Index('audit_log_account_idx', { synchronize: false })
export class AuditEntry {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'audit_log_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The user who acted (null for the operator's CLI); no foreign key, so entries outlive removed users. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  /** The actor's email at the time, or `operator (CLI)`. */
  @Column({ name: 'actor', type: 'text' })
  actor: string;

  @Column({ name: 'action', type: 'text' })
  action: string;

  @Column({ name: 'detail', type: 'text', default: '' })
  detail: string;

  @Column({ name: 'ip', type: 'text', default: '' })
  ip: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
