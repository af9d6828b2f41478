import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A person who signs in to the dashboard of one account. */
@Entity({ name: 'users' })
@Check('users_email_check', 'email = lower(email) AND length(email) BETWEEN 3 AND 254')
@Check(
  'users_permissions_check',
  "permissions <@ ARRAY['manage_api_keys', 'manage_billing', 'manage_senders', 'manage_settings', 'send_messages', 'manage_contacts', 'read_inbox']::text[]",
)
@Index('users_email_key', ['email'], { unique: true })
@Index('users_one_owner_key', ['accountId'], { unique: true, where: 'is_owner' })
@Index('users_account_idx', ['accountId'])
export class User {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @ForeignKey('Account', { name: 'users_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'email', type: 'text' })
  email: string;

  @Column({ name: 'name', type: 'text', default: '' })
  name: string;

  /** scrypt, with its parameters (password-hash.ts); null until the invitation link is used. */
  @Column({ name: 'password_hash', type: 'text', nullable: true, select: false })
  passwordHash: string | null;

  @Column({ name: 'is_owner', type: 'boolean', default: false })
  isOwner: boolean;

  @Column({ name: 'permissions', type: 'text', array: true, default: () => "'{}'" })
  permissions: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The TOTP secret, sealed with TWO_FACTOR_KEY (two-factor/secret-box.ts); set while enrolling and once on. */
  @Column({ name: 'totp_secret', type: 'bytea', nullable: true, select: false })
  totpSecret: Buffer | null;

  /** When two-factor sign-in was turned on; null: off. */
  @Column({ name: 'totp_enabled_at', type: 'timestamptz', nullable: true })
  totpEnabledAt: Date | null;

  /** The last TOTP step accepted: a code is never accepted twice. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep: string | null;

  /** SHA-256 digests of the unused recovery codes. */
  @Column({ name: 'recovery_codes', type: 'bytea', array: true, default: () => "'{}'", select: false })
  recoveryCodes: Buffer[];
}
