import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A sign-up waiting for its emailed link (24 h, once); only digests of the token and the client address are kept. */
@Entity({ name: 'sign_ups' })
@Check('sign_ups_email_check', 'email = lower(email) AND length(email) BETWEEN 3 AND 254')
@Check('sign_ups_token_sha256_check', 'octet_length(token_sha256) = 32')
@Index('sign_ups_token_key', ['tokenSha256'], { unique: true })
@Index('sign_ups_email_idx', ['email', 'createdAt'])
@Index('sign_ups_ip_idx', ['ipSha256', 'createdAt'])
export class SignUp {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @Column({ name: 'email', type: 'text' })
  email: string;

  @Column({ name: 'name', type: 'text' })
  name: string;

  @Column({ name: 'business_name', type: 'text' })
  businessName: string;

  /** scrypt, as users.password_hash: moved there when the link is used. */
  @Column({ name: 'password_hash', type: 'text', select: false })
  passwordHash: string;

  @Column({ name: 'token_sha256', type: 'bytea' })
  tokenSha256: Buffer;

  @Column({ name: 'ip_sha256', type: 'bytea' })
  ipSha256: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @ForeignKey('Account', { name: 'sign_ups_account_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'account_id', type: 'integer', nullable: true })
  accountId: number | null;
}
