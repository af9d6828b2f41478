import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { addressAllowed } from '../net/cidr';
import { failure } from '../errors/error-catalogue';
import type { AuthenticatedRequest } from './authenticated-request';
import { ApiScope, REQUIRED_SCOPE } from './api-scopes';

/**
 * Runs after BasicAuthGuard and before the in-flight limit: the key's client-address allow-list
 * (against the address the app determines for every request, so `TRUST_PROXY` decides whether
 * X-Forwarded-For counts), then the route's scope. A key refused here takes no in-flight slot.
 * `purchases` is left to the purchases switch (PurchasesSwitch), which answers after the
 * Idempotency-Key checks with the switch's own text.
 */
@Injectable()
export class ApiKeyPolicyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const caller = request.caller;
    if (!caller) return true; // a public route (BasicAuthGuard let it through without a key)
    if (caller.allowedCidrs?.length && !addressAllowed(caller.allowedCidrs, request.ip)) throw failure('apiKeyAddressRefused');
    const scope = this.reflector.getAllAndOverride<ApiScope | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    // Fail closed: an authenticated route without a scope is a programming error the route-scope unit test catches.
    if (!scope) throw new Error(`route ${request.method} ${request.url} declares no API key scope`);
    if (scope !== 'purchases' && !(caller.scopes ?? []).includes(scope)) throw failure('apiKeyScopeMissing', scope);
    return true;
  }
}
