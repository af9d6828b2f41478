import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
@Check('api_keys_password_sha256_check', 'octet_length(password_sha256) = 32')
@Check('api_keys_daily_limit_cents_check', 'daily_limit_cents >= 0')
@Check('api_keys_scopes_check', "scopes <@ ARRAY['messages:send', 'messages:read', 'contacts', 'senders', 'webhooks', 'account']::text[]")
@Check('api_keys_daily_message_cap_check', 'daily_message_cap IS NULL OR daily_message_cap > 0')
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

  /** Every scope but purchases (common/auth/api-scopes); purchases is the switch above. */
  @Column({ name: 'scopes', type: 'text', array: true, default: () => "'{messages:send,messages:read,contacts,senders,webhooks,account}'" })
  scopes: string[];

  /** CIDR blocks the key may be used from, in canonical form; empty: any address. */
  @Column({ name: 'allowed_cidrs', type: 'text', array: true, default: () => "'{}'" })
  allowedCidrs: string[];

  /** Messages the key may send per day in the account's time zone; null: no cap. */
  @Column({ name: 'daily_message_cap', type: 'integer', nullable: true })
  dailyMessageCap: number | null;

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
