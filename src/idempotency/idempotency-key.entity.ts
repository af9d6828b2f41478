import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A response stored for replay under the Idempotency-Key its API key sent, until it expires. */
@Entity({ name: 'idempotency_keys' })
@Check('idempotency_keys_key_check', 'length(key) BETWEEN 1 AND 255')
@Index('idempotency_keys_expires_idx', ['expiresAt'])
export class IdempotencyKey {
  @ForeignKey('ApiKey', { name: 'idempotency_keys_api_key_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'api_key_id', type: 'integer' })
  apiKeyId: number;

  @PrimaryColumn({ name: 'key', type: 'text' })
  key: string;

  /** Digest of the request body: the same key with a different body is refused, not replayed. */
  @Column({ name: 'fingerprint', type: 'bytea' })
  fingerprint: Buffer;

  /** 0 while the first request is still in its transaction. */
  @Column({ name: 'response_status', type: 'integer' })
  responseStatus: number;

  @Column({ name: 'response_content_type', type: 'text' })
  responseContentType: string;

  @Column({ name: 'response_body', type: 'text' })
  responseBody: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
