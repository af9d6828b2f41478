import { Writable } from 'node:stream';
import { createRootLogger } from '../../../../src/common/logging/logger';
import { runInLogContext } from '../../../../src/common/logging/log-context';

function capture() {
  const raw: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      raw.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { raw, lines, logger: createRootLogger('info', stream) };
}

describe(createRootLogger.name, () => {
  it('adds the request id and account of the work in progress to lines written through the root logger', () => {
    const { lines, logger } = capture();
    runInLogContext({ reqId: 'trace-1', accountId: 7 }, () => logger.info({ msg: 'inside' }));
    logger.info({ msg: 'outside' });
    expect(lines.map(({ msg, reqId, accountId }) => ({ msg, reqId, accountId }))).toEqual([
      { msg: 'inside', reqId: 'trace-1', accountId: 7 },
      { msg: 'outside', reqId: undefined, accountId: undefined },
    ]);
  });

  it('leaves a request’s own child logger to its bindings, so no field is written twice', () => {
    const { raw, lines, logger } = capture();
    const requestLog = logger.child({ reqId: 'trace-2' });
    runInLogContext({ reqId: 'trace-2', accountId: 7 }, () => {
      requestLog.setBindings({ accountId: 7 });
      requestLog.info('request completed');
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ reqId: 'trace-2', accountId: 7, msg: 'request completed' });
    expect(raw[0].match(/"reqId"/g)).toHaveLength(1);
    expect(raw[0].match(/"accountId"/g)).toHaveLength(1);
  });

  it('cuts query-string credentials from every line, children included, and redacts password fields', () => {
    const { raw, logger } = capture();
    logger.child({ reqId: 'r' }).info({ url: '/simple/send-sms?api_username=u1&api_password=hunter2&to=0412345678' }, 'request completed');
    logger.warn({ query: { api_password: 'hunter2' }, password: 'hunter2' }, 'failed GET /simple/send-sms?api_password=hunter2');
    expect(raw.join('')).not.toContain('hunter2');
    expect(raw.join('')).not.toContain('u1&');
    expect(raw[0]).toContain('api_password=[redacted]&to=0412345678');
  });
});
