import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CallerVerifier } from './caller-verifier';
import { failure } from '../errors/error-catalogue';
import { attributeRequestToAccount } from '../logging/attribute';
import type { AuthenticatedRequest } from './authenticated-request';
import { BasicCredentials, parseBasicAuthorization, parseQueryCredentials } from './basic-credentials';
import { ACCEPTS_QUERY_CREDENTIALS, IS_PUBLIC } from './public.decorator';

/**
 * HTTP Basic with an API username and password on every route not marked @Public(); routes marked
 * @AcceptsQueryCredentials() also take them from the query string when no usable Authorization header came.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly credentials: CallerVerifier,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    let parsed: BasicCredentials | null = parseBasicAuthorization(request.headers.authorization);
    if (!parsed && this.reflector.getAllAndOverride<boolean>(ACCEPTS_QUERY_CREDENTIALS, targets)) parsed = parseQueryCredentials(request.query);
    if (!parsed) throw failure('authenticationRequired');
    const caller = await this.credentials.verify(parsed.username, parsed.password);
    if (!caller) throw failure('invalidCredentials');
    request.caller = { ...caller, apiUsername: parsed.username, requestId: request.id };
    attributeRequestToAccount(request.log, caller.accountId);
    return true;
  }
}
