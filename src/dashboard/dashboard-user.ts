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
  };
}

/** The signed-in user of a route behind @DashboardController. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): DashboardUser => {
  const user = context.switchToHttp().getRequest<DashboardRequest>().dashboardUser;
  if (!user) throw new Error('CurrentUser used on a route without the dashboard guard');
  return user;
});
