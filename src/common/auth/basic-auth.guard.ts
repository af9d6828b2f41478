import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CallerVerifier } from './caller-verifier';
import { failure } from '../errors/error-catalogue';
import type { AuthenticatedRequest } from './authenticated-request';
import { parseBasicAuthorization } from './basic-credentials';
import { IS_PUBLIC } from './public.decorator';

/** HTTP Basic with an API username and password on every route not marked @Public(). */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly credentials: CallerVerifier,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const parsed = parseBasicAuthorization(request.headers.authorization);
    if (!parsed) throw failure('authenticationRequired');
    const caller = await this.credentials.verify(parsed.username, parsed.password);
    if (!caller) throw failure('invalidCredentials');
    request.caller = caller;
    return true;
  }
}
