import { Reflector } from '@nestjs/core';
import { ApiKeyPolicyGuard } from '../../../../src/common/auth/api-key-policy.guard';
import { RequiresScope } from '../../../../src/common/auth/api-scopes';
import type { Caller } from '../../../../src/common/auth/authenticated-request';
import { Public } from '../../../../src/common/auth/public.decorator';
import { DomainError } from '../../../../src/common/errors/domain-error';
import { aRequest, FakeReply, httpContext, Route } from '../../fakes/fake-http';

@RequiresScope('contacts')
class ContactsLikeController {
  list(): void {}

  @RequiresScope('messages:send')
  send(): void {}

  @RequiresScope('purchases')
  buy(): void {}
}

class UnscopedController {
  forgotten(): void {}

  @Public()
  health(): void {}
}

const route = (controller: Route['controller'], handler: (...args: never[]) => unknown): Route => ({ controller, handler });
const LIST = route(ContactsLikeController, ContactsLikeController.prototype.list);
const SEND = route(ContactsLikeController, ContactsLikeController.prototype.send);
const BUY = route(ContactsLikeController, ContactsLikeController.prototype.buy);

function check(caller: Partial<Caller> | undefined, target: Route, ip = '127.0.0.1'): string {
  const guard = new ApiKeyPolicyGuard(new Reflector());
  const request = aRequest({ ip, method: 'GET', url: '/x', caller: caller && { accountId: 1, apiKeyId: 2, isTest: false, ...caller } });
  try {
    return String(guard.canActivate(httpContext(request, new FakeReply(), target)));
  } catch (err) {
    return err instanceof DomainError ? `${err.kind}: ${err.message}` : `bug: ${(err as Error).message}`;
  }
}

describe(ApiKeyPolicyGuard.name, () => {
  it('lets a key through on a route of a scope it holds, by the handler’s scope over the controller’s', () => {
    expect(check({ scopes: ['contacts'] }, LIST)).toBe('true');
    expect(check({ scopes: ['messages:send'] }, SEND)).toBe('true');
  });

  it('refuses a key without the route’s scope with its name', () => {
    expect(check({ scopes: ['messages:send'] }, LIST)).toBe('forbidden: This API key does not have the contacts scope');
    expect(check({ scopes: ['contacts'] }, SEND)).toBe('forbidden: This API key does not have the messages:send scope');
    expect(check({ scopes: [] }, LIST)).toBe('forbidden: This API key does not have the contacts scope');
  });

  it('leaves purchases to the purchases switch (answered after the Idempotency-Key checks)', () => {
    expect(check({ scopes: ['contacts'] }, BUY)).toBe('true');
  });

  it('refuses a client address outside a non-empty allow-list, before the scope', () => {
    const caller = { scopes: ['contacts'], allowedCidrs: ['203.0.113.0/24', '2001:db8::/32'] };
    expect(check(caller, LIST, '203.0.113.50')).toBe('true');
    expect(check(caller, LIST, '2001:db8::9')).toBe('true');
    expect(check(caller, LIST, '198.51.100.1')).toBe('forbidden: This API key cannot be used from this address');
    expect(check(caller, SEND, '198.51.100.1')).toBe('forbidden: This API key cannot be used from this address');
    expect(check({ scopes: ['contacts'], allowedCidrs: [] }, LIST, '198.51.100.1')).toBe('true');
  });

  it('passes public routes (no caller) and fails closed on an authenticated route without a scope', () => {
    expect(check(undefined, route(UnscopedController, UnscopedController.prototype.health))).toBe('true');
    expect(check({ scopes: ['contacts'] }, route(UnscopedController, UnscopedController.prototype.forgotten))).toMatch(/^bug: route GET \/x declares no API key scope/);
  });
});
