import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from '../common/auth/authenticated-request';
import { apiKeyActor, type Actor } from './actor';

/** The API key of the request as an Actor (for audited API actions); only on routes behind BasicAuthGuard. */
export const ApiKeyActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.caller) throw new Error('ApiKeyActor used on a route without BasicAuthGuard');
  return apiKeyActor(request.caller, request.ip);
});
