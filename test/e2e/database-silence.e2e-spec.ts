import { DataSource } from 'typeorm';
import { checkHost } from '../../src/database/connection-watchdog';
import { poolOf } from '../../src/database/typeorm-pool';
import { freePort } from '../support/free-port';
import { LogCapture } from '../support/log-capture';
import { TcpProxy } from '../support/tcp-proxy';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

/**
 * A PostgreSQL host that stops answering without closing anything (a machine that hangs, a network that drops
 * every packet): the queries waiting on it fail as the database being out of reach (503) once a new
 * connection to the same host gets no answer either, instead of waiting for the kernel to give up on the
 * socket (about 15 minutes). A query that is only slow, on a host that answers, is left alone.
 */
describe('PostgreSQL that stops answering', () => {
  const proxy = new TcpProxy('127.0.0.1', 5432);
  let t: TestApp;
  const logs = new LogCapture();
  const pool = () => poolOf(t.app.get(DataSource));

  beforeAll(async () => {
    const port = await proxy.start();
    const url = new URL(process.env.DATABASE_URL!);
    url.host = `127.0.0.1:${port}`;
    // The silence before a connection is checked, and the check's own time limit, are this timeout.
    t = await startTestApp({ databaseUrl: url.toString(), dependencyTimeoutMs: 500, appRole: 'api', databasePoolMin: 2, logLevel: 'warn' }, { logDestination: logs.stream });
  });
  afterAll(async () => {
    proxy.thaw();
    await proxy.cut();
    await t.close();
  });

  it('leaves a query that is slower than the timeout alone while its host answers', async () => {
    const rows: Array<{ slept: string }> = await t.app.get(DataSource).query(`SELECT pg_sleep(2)::text AS slept`);
    expect(rows).toEqual([{ slept: '' }]);
  });

  it('answers 503 while the host is silent, ends the connections waiting on it, and recovers when it answers', async () => {
    const account = await createAccount(t.app);
    expect((await t.api.get('/v1/account', { auth: account.auth })).status).toBe(200);
    const before = pool().totalCount;
    expect(before).toBeGreaterThan(0);

    proxy.freeze();
    const down = await t.api.get('/v1/account', { auth: account.auth });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ error: 'Service temporarily unavailable, please retry' });
    expect(down.headers['retry-after']).toBe('5');
    // The connection that took the request's query is gone from the pool, not left waiting, and the operator is told.
    expect(pool().totalCount).toBeLessThan(before);
    const warned = logs.lines.filter((l) => l.context === 'ConnectionWatchdog');
    expect(warned.length).toBeGreaterThan(0);
    expect(warned[0]).toMatchObject({ level: 40, host: `127.0.0.1:${proxy.port}`, silenceMs: 500 });
    expect(warned[0].connections).toBeGreaterThan(0);

    proxy.thaw();
    let back = await t.api.get('/v1/account', { auth: account.auth });
    // A pooled connection opened before the freeze may still be found and ended on the first request after it.
    if (back.status === 503) back = await t.api.get('/v1/account', { auth: account.auth });
    expect(back.status).toBe(200);
  });
});

describe('checkHost (a new connection to the host of silent ones)', () => {
  const direct = () => new URL(process.env.DATABASE_URL!);
  const like = (port: number, database = direct().pathname.slice(1)) => ({ host: '127.0.0.1', port, user: direct().username, database });

  it('hears a host that lets a session start and answers its query', async () => {
    expect(await checkHost(like(Number(direct().port || 5432)), 2000)).toBe('answers');
  });

  it('counts a refusal from PostgreSQL itself (no such database) as an answer: the server is up', async () => {
    expect(await checkHost(like(Number(direct().port || 5432), 'no_such_database_here'), 2000)).toBe('answers');
  });

  it('calls a host silent when nothing listens on its port', async () => {
    expect(await checkHost(like(await freePort()), 2000)).toBe('silent');
  });

  it('calls a host silent when it takes the connection and answers nothing, within the time limit', async () => {
    const hung = new TcpProxy('127.0.0.1', Number(direct().port || 5432));
    await hung.start();
    hung.freeze();
    try {
      expect(await checkHost(like(hung.port), 300)).toBe('silent');
    } finally {
      hung.thaw();
      await hung.cut();
    }
  });
});
