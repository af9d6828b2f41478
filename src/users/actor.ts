import { PERMISSIONS, type Principal } from './permissions';

/** Who is acting, for permission checks and the audit log: a signed-in user, or the operator at the CLI. */
export interface Actor extends Principal {
  /** null for the operator. */
  userId: number | null;
  accountId: number;
  /** Recorded in the audit log as the actor. */
  email: string;
  ip: string;
  /** The API key acting, when the action came through the API (userId is then null). */
  apiKeyId?: number | null;
}

export const OPERATOR = 'operator (CLI)';

export function operatorActor(accountId: number): Actor {
  return { userId: null, accountId, email: OPERATOR, isOwner: true, permissions: [...PERMISSIONS], ip: '' };
}

/** An API key acting on its account (no user): named in the audit log by its username. */
export function apiKeyActor(caller: { accountId: number; apiKeyId: number; apiUsername?: string }, ip: string): Actor {
  return {
    userId: null,
    accountId: caller.accountId,
    email: `API key ${caller.apiUsername ?? `#${caller.apiKeyId}`}`,
    isOwner: false,
    permissions: [],
    ip,
    apiKeyId: caller.apiKeyId,
  };
}
