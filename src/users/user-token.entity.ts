import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type UserTokenPurpose = 'invitation' | 'password_reset';

/** A single-use link sent by email (set a first password, or reset it); only its SHA-256 is kept. */
@Entity({ name: 'user_tokens' })
@Check('user_tokens_purpose_check', "purpose IN ('invitation', 'password_reset')")
@Check('user_tokens_token_sha256_check', 'octet_length(token_sha256) = 32')
@Index('user_tokens_token_key', ['tokenSha256'], { unique: true })
@Index('user_tokens_user_idx', ['userId', 'createdAt'])
export class UserToken {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('User', { name: 'user_tokens_user_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'purpose', type: 'text' })
  purpose: UserTokenPurpose;

  @Column({ name: 'token_sha256', type: 'bytea' })
  tokenSha256: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
