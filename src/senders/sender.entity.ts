import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export const SENDER_TYPES = ['alpha', 'own', 'dedicated', 'shared'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];
export type SenderStatus = 'active' | 'pending' | 'removed';

@Entity({ name: 'senders' })
@Check('senders_type_check', "type IN ('alpha', 'own', 'dedicated', 'shared')")
@Check('senders_status_check', "status IN ('active', 'pending', 'removed')")
@Index('senders_account_value_key', ['accountId', 'value'], { unique: true })
// Inbound routing looks a receiving number up across accounts.
@Index('senders_value_active_idx', ['value'], { where: "status = 'active'" })
export class Sender {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @ForeignKey('Account', { name: 'senders_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The exact value a request names: digits for numbers (no +), else the alphanumeric ID. */
  @Column({ name: 'value', type: 'text' })
  value: string;

  @Column({ name: 'type', type: 'text' })
  type: SenderType;

  @Column({ name: 'status', type: 'text', default: 'active' })
  status: SenderStatus;

  @Column({ name: 'label', type: 'text', default: '' })
  label: string;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
