import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../users/actor';
import type { SignedInUser } from '../users/sessions.service';

/** The signed-in person on a dashboard request: an Actor for the services, plus what pages show. */
export interface DashboardUser extends Actor {
  userId: number;
  sessionId: number;
  name: string;
  accountName: string;
  accountIsTest: boolean;
  /** The account's IANA zone: every time a page shows or reads is in it. */
  timeZone: string;
  /** The account requires two-factor sign-in and this user has not set it up: only the set-up page opens. */
  mustSetUpTwoFactor: boolean;
  /** The account requires two-factor sign-in (the owner's switch): a user may not turn theirs off. */
  twoFactorRequired: boolean;
  /** The sending brake holds the account's sends: every page says so. */
  sendingPaused: boolean;
}

export type DashboardRequest = FastifyRequest & { dashboardUser?: DashboardUser };

export function toDashboardUser(session: SignedInUser, ip: string): DashboardUser {
  return {
    userId: session.userId,
    sessionId: session.sessionId,
    accountId: session.accountId,
    accountName: session.accountName,
    accountIsTest: session.accountIsTest,
    timeZone: session.accountTimeZone,
    email: session.email,
    name: session.name,
    isOwner: session.isOwner,
    permissions: session.permissions,
    ip,
    mustSetUpTwoFactor: session.accountRequiresTwoFactor && !session.twoFactorOn,
    twoFactorRequired: session.accountRequiresTwoFactor,
    sendingPaused: session.sendingPausedAt !== null,
  };
}

/** The signed-in user of a route behind @DashboardController. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): DashboardUser => {
  const user = context.switchToHttp().getRequest<DashboardRequest>().dashboardUser;
  if (!user) throw new Error('CurrentUser used on a route without the dashboard guard');
  return user;
});
