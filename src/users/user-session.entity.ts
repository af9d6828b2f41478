import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A signed-in browser. The cookie holds a random token; only its SHA-256 is here. */
@Entity({ name: 'user_sessions' })
@Check('user_sessions_token_sha256_check', 'octet_length(token_sha256) = 32')
@Index('user_sessions_token_key', ['tokenSha256'], { unique: true })
@Index('user_sessions_user_idx', ['userId'])
export class UserSession {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('User', { name: 'user_sessions_user_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'token_sha256', type: 'bytea' })
  tokenSha256: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;

  @Column({ name: 'ip', type: 'text', default: '' })
  ip: string;
}
