import { Reflector } from '@nestjs/core';
import type { Caller } from '../../../../src/common/auth/authenticated-request';
import { BasicAuthGuard } from '../../../../src/common/auth/basic-auth.guard';
import { Public } from '../../../../src/common/auth/public.decorator';
import { FakeCallerVerifier } from '../../fakes/fake-caller-verifier';
import { aRequest, FakeReply, FakeRequest, httpContext, Route } from '../../fakes/fake-http';

class MessagesController {
  send(): void {}

  @Public()
  health(): void {}
}

@Public()
class DocsController {
  openapi(): void {}
}

const SEND: Route = { controller: MessagesController, handler: MessagesController.prototype.send };
const caller: Caller = { accountId: 1, apiKeyId: 7, isTest: false };
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

function setup() {
  const verifier = new FakeCallerVerifier({ acme: { password: 'pa:ss word', caller } });
  const guard = new BasicAuthGuard(verifier, new Reflector());
  const check = (request: FakeRequest, route = SEND) => guard.canActivate(httpContext(request, new FakeReply(), route));
  return { verifier, check };
}

describe(BasicAuthGuard.name, () => {
  it.each([
    ['a public handler', { controller: MessagesController, handler: MessagesController.prototype.health }],
    ['a handler of a public controller', { controller: DocsController, handler: DocsController.prototype.openapi }],
  ])('lets %s through without credentials, checking nothing', async (_, route: Route) => {
    const { check, verifier } = setup();
    const request = aRequest();

    await expect(check(request, route)).resolves.toBe(true);
    expect(verifier.calls).toEqual([]);
    expect(request.caller).toBeUndefined();
  });

  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Bearer abc.def'],
    ['Basic without credentials', 'Basic'],
    ['credentials that are not base64', 'Basic !!!!'],
    ['credentials without a colon', basic('acme')],
    ['an empty username', basic(':pa:ss word')],
    ['an empty password', basic('acme:')],
  ])('answers authenticationRequired for %s, asking the verifier nothing', async (_, authorization) => {
    const { check, verifier } = setup();

    await expect(check(aRequest({ headers: { authorization } }))).rejects.toMatchObject({
      condition: 'authenticationRequired',
      kind: 'unauthenticated',
      message: 'Authentication required',
    });
    expect(verifier.calls).toEqual([]);
  });

  it.each([
    ['a wrong password', basic('acme:wrong')],
    ['an unknown username', basic('nobody:pa:ss word')],
  ])('answers invalidCredentials for %s', async (_, authorization) => {
    const { check } = setup();
    const request = aRequest({ headers: { authorization } });

    await expect(check(request)).rejects.toMatchObject({ condition: 'invalidCredentials', kind: 'unauthenticated', message: 'Invalid API username or password' });
    expect(request.caller).toBeUndefined();
  });

  it('attaches the verified caller to the request, splitting the credentials at the first colon', async () => {
    const { check, verifier } = setup();
    const request = aRequest({ headers: { authorization: basic('acme:pa:ss word') } });

    await expect(check(request)).resolves.toBe(true);
    expect(verifier.calls).toEqual([{ username: 'acme', password: 'pa:ss word' }]);
    expect(request.caller).toBe(caller);
  });

  it('accepts the scheme name in any case', async () => {
    const { check } = setup();
    const request = aRequest({ headers: { authorization: basic('acme:pa:ss word').replace('Basic', 'bAsIc') } });

    await expect(check(request)).resolves.toBe(true);
  });
});
