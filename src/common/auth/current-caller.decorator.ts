import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest, Caller } from './authenticated-request';

/** The authenticated caller; only on routes behind BasicAuthGuard. */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without BasicAuthGuard');
  return caller;
});
