import { PERMISSIONS, type Principal } from './permissions';

/** Who is acting, for permission checks and the audit log: a signed-in user, or the operator at the CLI. */
export interface Actor extends Principal {
  /** null for the operator. */
  userId: number | null;
  accountId: number;
  /** Recorded in the audit log as the actor. */
  email: string;
  ip: string;
}

export const OPERATOR = 'operator (CLI)';

export function operatorActor(accountId: number): Actor {
  return { userId: null, accountId, email: OPERATOR, isOwner: true, permissions: [...PERMISSIONS], ip: '' };
}
