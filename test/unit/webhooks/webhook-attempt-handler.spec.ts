import { RESPONSE_BODY_LIMIT, SendResult, WebhookAttemptHandler } from '../../../src/webhooks/webhook-attempt-handler';

describe(WebhookAttemptHandler.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function attempt(timeoutMs = 1000) {
    const results: SendResult[] = [];
    const aborts: Error[] = [];
    const handler = new WebhookAttemptHandler(timeoutMs, (r) => results.push(r));
    const connect = () => handler.onConnect((err) => aborts.push(err!));
    return { handler, results, aborts, connect };
  }
  const outcome = (r: SendResult) => [r.ok, r.status, r.error];

  it('answers a 2xx as delivered and anything else as failed with its status', () => {
    for (const [status, expected] of [
      [200, [true, 200, '']],
      [204, [true, 204, '']],
      [302, [false, 302, 'HTTP 302']],
      [500, [false, 500, 'HTTP 500']],
    ] as const) {
      const { handler, results, connect } = attempt();
      connect();
      handler.onHeaders(status);
      handler.onData(Buffer.from('ok'));
      handler.onComplete();
      expect(results.map(outcome)).toEqual([expected]);
    }
  });

  it('waits past informational statuses for the final one', () => {
    const { handler, results, connect } = attempt();
    connect();
    handler.onHeaders(100);
    handler.onHeaders(503);
    handler.onComplete();
    expect(results.map(outcome)).toEqual([[false, 503, 'HTTP 503']]);
  });

  it('aborts at the deadline and reports a timeout, once', () => {
    const { handler, results, aborts, connect } = attempt(800);
    connect();
    jest.advanceTimersByTime(799);
    expect(aborts).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(aborts).toHaveLength(1);
    handler.onError(aborts[0]);
    handler.onError(new Error('socket closed'));
    expect(results.map(outcome)).toEqual([[false, null, 'timeout after 800 ms']]);
  });

  it('answers a request still without a connection at the deadline, and aborts it if it gets one later', () => {
    const { results, aborts, connect, handler } = attempt(500);
    jest.advanceTimersByTime(499);
    expect(results).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(results.map(outcome)).toEqual([[false, null, 'timeout after 500 ms']]);
    connect();
    expect(aborts).toHaveLength(1);
    handler.onError(aborts[0]);
    expect(results).toHaveLength(1);
  });

  it("reports undici's own timeouts as timeouts and other errors by their cause", () => {
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']) {
      const { handler, results } = attempt(700);
      handler.onError(Object.assign(new Error('x'), { code }));
      expect(results.map(outcome)).toEqual([[false, null, 'timeout after 700 ms']]);
    }
    const refused = attempt();
    refused.handler.onError(Object.assign(new Error('fetch failed'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }));
    expect(refused.results.map(outcome)).toEqual([[false, null, 'connect ECONNREFUSED 127.0.0.1:9']]);
    const long = attempt();
    long.handler.onError(new Error('e'.repeat(600)));
    expect(long.results[0].error).toHaveLength(500);
  });

  it('keeps the status once it is in, whatever cuts the body short', () => {
    const late = attempt(800);
    late.connect();
    late.handler.onHeaders(200);
    jest.advanceTimersByTime(800);
    late.handler.onError(late.aborts[0]);
    expect(late.results.map(outcome)).toEqual([[true, 200, '']]);

    const reset = attempt();
    reset.connect();
    reset.handler.onHeaders(500);
    reset.handler.onError(new Error('other side closed'));
    expect(reset.results.map(outcome)).toEqual([[false, 500, 'HTTP 500']]);
  });

  it('cuts a response body past the limit and answers by the status', () => {
    const { handler, results, aborts, connect } = attempt();
    connect();
    handler.onHeaders(200);
    handler.onData(Buffer.alloc(RESPONSE_BODY_LIMIT));
    expect(aborts).toHaveLength(0);
    handler.onData(Buffer.alloc(1));
    expect(aborts).toHaveLength(1);
    handler.onError(aborts[0]);
    expect(results.map(outcome)).toEqual([[true, 200, '']]);
  });

  it('clears its deadline when it finishes', () => {
    const { handler, aborts, connect } = attempt(100);
    connect();
    handler.onHeaders(200);
    handler.onComplete();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(aborts).toHaveLength(0);
  });
});
