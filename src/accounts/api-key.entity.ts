import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Index()
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Index({ unique: true })
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
}
