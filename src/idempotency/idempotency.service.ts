import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { digestsEqual } from '../accounts/secrets';
import { AppConfig } from '../config/app-config';
import { requestFingerprint } from './canonical-json';
import { IdempotencyRepository, StoredResponse } from './idempotency.repository';
import { Tx } from '../database/unit-of-work';

export const IDEMPOTENCY_KEY_MAX = 255;

/** An Idempotency-Key in play for one request: scoped by API key, with the body's fingerprint. */
export interface IdempotencyClaim {
  apiKeyId: number;
  key: string;
  fingerprint: Buffer;
}

/** Thrown inside the operation's transaction when another request already completed this key. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('idempotency key completed by another request');
  }
}

export type Replay = Omit<StoredResponse, 'fingerprint'>;

/**
 * Idempotent retries (interface: Retries of requests). The key is claimed and the response stored in
 * the same transaction as the operation itself, so a crash, a failure or a concurrent duplicate can
 * never leave a send without its record or a record without its send.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly repo: IdempotencyRepository,
    private readonly config: AppConfig,
  ) {}

  /** `operation` names the endpoint (controller and handler), so a key's fingerprint is per operation. */
  prepare(apiKeyId: number, key: string, operation: string, body: unknown): IdempotencyClaim {
    if (key.length > IDEMPOTENCY_KEY_MAX) throw failure('idempotencyKeyTooLong');
    return { apiKeyId, key, fingerprint: requestFingerprint(operation, body) };
  }

  /** The stored response to replay, null when the key is new (or expired); 422 for a different body. */
  async findReplay(claim: IdempotencyClaim): Promise<Replay | null> {
    const stored = await this.repo.findLive(claim.apiKeyId, claim.key);
    if (!stored) return null;
    if (!digestsEqual(stored.fingerprint, claim.fingerprint)) throw failure('idempotencyKeyReused');
    return { status: stored.status, contentType: stored.contentType, body: stored.body };
  }

  /** First statement of the operation's transaction; throws IdempotencyKeyTaken when another request won. */
  async claim(claim: IdempotencyClaim, manager: Tx): Promise<void> {
    if (!(await this.repo.claim(claim.apiKeyId, claim.key, claim.fingerprint, this.config.idempotencyTtlMs, manager))) throw new IdempotencyKeyTaken();
  }

  /** Last statement of the operation's transaction: the exact bytes a replay will answer. */
  async complete(claim: IdempotencyClaim, manager: Tx, status: number, body: string): Promise<void> {
    await this.repo.complete(claim.apiKeyId, claim.key, status, 'application/json; charset=utf-8', body, manager);
  }

  async purgeExpired(): Promise<number> {
    let total = 0;
    for (let deleted = await this.repo.purgeExpired(5000); deleted > 0; deleted = await this.repo.purgeExpired(5000)) total += deleted;
    return total;
  }
}
