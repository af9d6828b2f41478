import type { FastifyRequest } from 'fastify';

/** Who is calling, set by BasicAuthGuard. */
export interface Caller {
  accountId: number;
  apiKeyId: number;
  isTest: boolean;
  /** The key's scopes (common/auth/api-scopes), purchases included when its switch is on. */
  scopes?: readonly string[];
  /** The key's client-address allow-list (CIDR blocks); empty or absent: any address. */
  allowedCidrs?: readonly string[];
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
