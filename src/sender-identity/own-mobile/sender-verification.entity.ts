import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One confirmation text sent to a mobile being registered as an `own` sender; only its link's SHA-256 is kept. */
@Entity({ name: 'sender_verifications' })
@Check('sender_verifications_token_sha256_check', 'octet_length(token_sha256) = 32')
@Index('sender_verifications_token_key', ['tokenSha256'], { unique: true })
// The hourly throttle counts texts per number, across accounts.
@Index('sender_verifications_number_idx', ['number', 'createdAt'])
@Index('sender_verifications_sender_idx', ['senderId', 'createdAt'])
export class SenderVerification {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'sender_verifications_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey('Sender', { name: 'sender_verifications_sender_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'sender_id', type: 'integer' })
  senderId: number;

  /** The mobile, normalised (61…). */
  @Column({ name: 'number', type: 'text' })
  number: string;

  @Column({ name: 'token_sha256', type: 'bytea' })
  tokenSha256: Buffer;

  /**
   * The confirmation text (a message of the platform's system account, written in the same transaction). No
   * foreign key: `messages` is partitioned, and the id stays after retention drops the message's month.
   */
  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId: string | null;

  /** Who asked: a dashboard user, or an API key (then user_id is null). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @ForeignKey('ApiKey', { name: 'sender_verifications_api_key_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  /** Set when a newer link replaced this one, or the pending sender was withdrawn. */
  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt: Date | null;
}
