import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
@Check('api_keys_password_sha256_check', 'octet_length(password_sha256) = 32')
@Check('api_keys_daily_limit_cents_check', 'daily_limit_cents >= 0')
@Index('api_keys_username_key', ['username'], { unique: true })
@Index('api_keys_account_id_idx', ['accountId'], { where: 'revoked_at IS NULL' })
export class ApiKey {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @ForeignKey('Account', { name: 'api_keys_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'username', type: 'text' })
  username: string;

  /** SHA-256 of the random password; passwords are high-entropy, so no slow key derivation is needed. */
  @Column({ name: 'password_sha256', type: 'bytea' })
  passwordSha256: Buffer;

  @Column({ name: 'label', type: 'text', default: '' })
  label: string;

  @Column({ name: 'purchases_enabled', type: 'boolean', default: false })
  purchasesEnabled: boolean;

  /** AUD cents including GST over any 24 hours (interface: initial 500.00). */
  @Column({ name: 'daily_limit_cents', type: 'integer', default: 50000 })
  dailyLimitCents: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** When the key last authenticated, to the minute (written at most once a minute). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
