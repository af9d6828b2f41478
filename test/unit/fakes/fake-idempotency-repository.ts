import type { IdempotencyRepository, StoredResponse } from '../../../src/idempotency/idempotency.repository';

/** Completed idempotency records by API key and key; findLive is the only read the interceptor's path makes. */
export class FakeIdempotencyRepository implements Pick<IdempotencyRepository, 'findLive'> {
  readonly lookups: Array<{ apiKeyId: number; key: string }> = [];
  private readonly records = new Map<string, StoredResponse>();

  /** A response completed (and committed) under this key. */
  store(apiKeyId: number, key: string, response: StoredResponse): void {
    this.records.set(`${apiKeyId}\u0000${key}`, response);
  }

  async findLive(apiKeyId: number, key: string): Promise<StoredResponse | null> {
    this.lookups.push({ apiKeyId, key });
    return this.records.get(`${apiKeyId}\u0000${key}`) ?? null;
  }
}
