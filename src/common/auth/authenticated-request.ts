import type { FastifyRequest } from 'fastify';

/** Who is calling, set by BasicAuthGuard. */
export interface Caller {
  accountId: number;
  apiKeyId: number;
  isTest: boolean;
  /** The key's username (what the audit log names it by); set by the Basic guard. */
  apiUsername?: string;
  /** The HTTP request this call serves (X-Request-Id), stored with what it creates so worker logs can name it; absent outside HTTP. */
  requestId?: string;
}

export type AuthenticatedRequest = FastifyRequest & {
  caller?: Caller;
  /** The in-flight slot held by this request (ConcurrencyGuard), released when its response is sent. */
  inflightSlot?: { release(): Promise<void> };
};
