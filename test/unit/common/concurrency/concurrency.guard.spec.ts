import { Reflector } from '@nestjs/core';
import type { Caller } from '../../../../src/common/auth/authenticated-request';
import { Public } from '../../../../src/common/auth/public.decorator';
import { ConcurrencyGuard } from '../../../../src/common/concurrency/concurrency.guard';
import type { InflightLimiter } from '../../../../src/common/concurrency/inflight-limiter';
import { AppConfig } from '../../../../src/config/app-config';
import { aRequest, FakeReply, FakeRequest, httpContext, Route } from '../../fakes/fake-http';
import { FakeInflightLimiter } from '../../fakes/fake-inflight-limiter';

class MessagesController {
  send(): void {}

  @Public()
  health(): void {}
}

const SEND: Route = { controller: MessagesController, handler: MessagesController.prototype.send };
const HEALTH: Route = { controller: MessagesController, handler: MessagesController.prototype.health };
const callerOf = (accountId: number): Caller => ({ accountId, apiKeyId: accountId * 10, isTest: false });

function setup() {
  // The limiter holds the configured number of slots per account (interface: Limits, 5 by default).
  const limiter = new FakeInflightLimiter(new AppConfig().inflightLimit);
  const guard = new ConcurrencyGuard(limiter as unknown as InflightLimiter, new Reflector());
  /** One request reaching the guard; its reply, to close it later. */
  const arrive = async (request: FakeRequest = aRequest({ caller: callerOf(1) }), route = SEND) => {
    const reply = new FakeReply();
    const admitted = await guard.canActivate(httpContext(request, reply, route));
    return { admitted, request, reply };
  };
  return { limiter, arrive };
}

describe(ConcurrencyGuard.name, () => {
  it('lets a public route through without taking a slot', async () => {
    const { limiter, arrive } = setup();

    const { admitted } = await arrive(aRequest(), HEALTH);

    expect(admitted).toBe(true);
    expect(limiter.acquisitions).toEqual([]);
  });

  it('turns away a non-public request that reached it without a caller, taking no slot', async () => {
    const { limiter, arrive } = setup();

    const { admitted } = await arrive(aRequest());

    expect(admitted).toBe(false);
    expect(limiter.acquisitions).toEqual([]);
  });

  it('takes one slot of the caller’s account and attaches it to the request, holding it while the request runs', async () => {
    const { limiter, arrive } = setup();

    const { admitted, request } = await arrive(aRequest({ caller: callerOf(3) }));

    expect(admitted).toBe(true);
    expect(limiter.acquisitions).toEqual([3]);
    expect(request.inflightSlot).toBeDefined();
    expect(limiter.inFlight(3)).toBe(1);
    expect(limiter.releaseCalls).toBe(0);
  });

  it('refuses an account’s sixth concurrent request with tooManyConcurrentRequests, while another account still gets in', async () => {
    const { arrive } = setup();
    for (let i = 0; i < 5; i++) expect((await arrive()).admitted).toBe(true);

    await expect(arrive()).rejects.toMatchObject({
      condition: 'tooManyConcurrentRequests',
      kind: 'too_many_requests',
      message: 'Too many concurrent requests. Please wait.',
    });
    await expect(arrive(aRequest({ caller: callerOf(2) }))).resolves.toMatchObject({ admitted: true });
  });

  it('releases the slot when the response closes, so the next request gets in', async () => {
    const { limiter, arrive } = setup();
    const first = await arrive();
    for (let i = 0; i < 4; i++) await arrive();

    first.reply.raw.emit('close');

    expect(limiter.inFlight(1)).toBe(4);
    await expect(arrive()).resolves.toMatchObject({ admitted: true });
  });

  it('releases the slot once, however often the response reports closing', async () => {
    const { limiter, arrive } = setup();
    const { reply } = await arrive();

    reply.raw.emit('close');
    reply.raw.emit('close');

    expect(limiter.releaseCalls).toBe(1);
  });

  it('releases the slot at once when the client has already gone', async () => {
    const { limiter, arrive } = setup();

    const { admitted } = await arrive(aRequest({ caller: callerOf(1), raw: { socket: { destroyed: true } } }));

    expect(admitted).toBe(true);
    expect(limiter.inFlight(1)).toBe(0);
  });
});
