import type { FastifyRequest } from 'fastify';

/** Who is calling, set by BasicAuthGuard. */
export interface Caller {
  accountId: number;
  apiKeyId: number;
  isTest: boolean;
}

export type AuthenticatedRequest = FastifyRequest & {
  caller?: Caller;
  /** The in-flight slot held by this request (ConcurrencyGuard), released when its response is sent. */
  inflightSlot?: { release(): Promise<void> };
};
