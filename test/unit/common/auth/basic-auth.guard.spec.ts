import { Reflector } from '@nestjs/core';
import type { Caller } from '../../../../src/common/auth/authenticated-request';
import { BasicAuthGuard } from '../../../../src/common/auth/basic-auth.guard';
import { AcceptsQueryCredentials, Public } from '../../../../src/common/auth/public.decorator';
import { currentLogContext, runInLogContext } from '../../../../src/common/logging/log-context';
import { FakeCallerVerifier } from '../../fakes/fake-caller-verifier';
import { aRequest, FakeReply, FakeRequest, httpContext, Route } from '../../fakes/fake-http';

class MessagesController {
  send(): void {}

  @Public()
  health(): void {}

  @AcceptsQueryCredentials()
  simpleSend(): void {}
}

@Public()
class DocsController {
  openapi(): void {}
}

const SEND: Route = { controller: MessagesController, handler: MessagesController.prototype.send };
const SIMPLE_SEND: Route = { controller: MessagesController, handler: MessagesController.prototype.simpleSend };
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

  it('attaches the verified caller and the request id to the request, splitting the credentials at the first colon', async () => {
    const { check, verifier } = setup();
    const request = aRequest({ id: 'trace-7', headers: { authorization: basic('acme:pa:ss word') } });

    await expect(check(request)).resolves.toBe(true);
    expect(verifier.calls).toEqual([{ username: 'acme', password: 'pa:ss word' }]);
    expect(request.caller).toEqual({ ...caller, apiUsername: 'acme', requestId: 'trace-7' });
  });

  it('names the account on the request’s log lines and in the ambient log context', async () => {
    const { check } = setup();
    const request = aRequest({ headers: { authorization: basic('acme:pa:ss word') } });
    const context = { reqId: 'req-1' };

    await runInLogContext(context, () => check(request));

    expect(request.log!.bindings).toEqual({ accountId: 1 });
    expect(context).toEqual({ reqId: 'req-1', accountId: 1 });
    expect(currentLogContext()).toBeUndefined();
  });

  describe('query credentials', () => {
    const query = { api_username: 'acme', api_password: 'pa:ss word' };

    it('are taken on a route that accepts them when no Authorization header came', async () => {
      const { check, verifier } = setup();
      const request = aRequest({ query });

      await expect(check(request, SIMPLE_SEND)).resolves.toBe(true);
      expect(verifier.calls).toEqual([{ username: 'acme', password: 'pa:ss word' }]);
      expect(request.caller).toEqual({ ...caller, apiUsername: 'acme', requestId: 'req-1' });
    });

    it('lose to a Basic header sent with them', async () => {
      const { check, verifier } = setup();

      await expect(check(aRequest({ query: { api_username: 'acme', api_password: 'wrong' }, headers: { authorization: basic('acme:pa:ss word') } }), SIMPLE_SEND)).resolves.toBe(
        true,
      );
      expect(verifier.calls).toEqual([{ username: 'acme', password: 'pa:ss word' }]);
    });

    it('are ignored on every other route', async () => {
      const { check, verifier } = setup();

      await expect(check(aRequest({ query }))).rejects.toMatchObject({ condition: 'authenticationRequired' });
      expect(verifier.calls).toEqual([]);
    });

    it.each([
      ['only a username', { api_username: 'acme' }],
      ['an empty password', { api_username: 'acme', api_password: '' }],
      ['a repeated password', { api_username: 'acme', api_password: ['a', 'b'] }],
    ])('answer authenticationRequired when they are incomplete: %s', async (_, partial) => {
      const { check } = setup();

      await expect(check(aRequest({ query: partial }), SIMPLE_SEND)).rejects.toMatchObject({ condition: 'authenticationRequired' });
    });

    it('answer invalidCredentials when wrong', async () => {
      const { check } = setup();

      await expect(check(aRequest({ query: { api_username: 'acme', api_password: 'nope' } }), SIMPLE_SEND)).rejects.toMatchObject({ condition: 'invalidCredentials' });
    });
  });

  it('accepts the scheme name in any case', async () => {
    const { check } = setup();
    const request = aRequest({ headers: { authorization: basic('acme:pa:ss word').replace('Basic', 'bAsIc') } });

    await expect(check(request)).resolves.toBe(true);
  });
});
