import { Pool } from 'pg';
import { classifyDependencyFailure } from '../../src/common/errors/dependency-errors';
import { parseDatabaseUrl } from '../../src/database/database-url';
import { openClient, pgConnectionOptions, PrimaryLocator } from '../../src/database/primary-locator';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * A DATABASE_URL listing several hosts, on the real PostgreSQL: connections go to the first host that accepts
 * the session the URL asks for, a pool moves on when its host goes away, and a session of the wrong kind is
 * refused as PostgreSQL being out of reach (503), never used.
 */
describe('multi-host DATABASE_URL', () => {
  const direct = () => new URL(process.env.DATABASE_URL!);
  /** The run's database URL with these host:port entries and query. */
  function listing(hosts: string[], query: string): string {
    const url = direct();
    return `postgres://${url.username}@${hosts.join(',')}${url.pathname}?${query}`;
  }
  const here = () => `${direct().hostname}:${direct().port || 5432}`;
  const closedPort = async () => {
    const proxy = new TcpProxy('127.0.0.1', 1);
    const port = await proxy.start();
    await proxy.cut();
    return `127.0.0.1:${port}`;
  };

  it('skips a host that refuses connections and reaches the next', async () => {
    const client = await openClient(listing([await closedPort(), here()], 'target_session_attrs=read-write'), { connectionTimeoutMillis: 2000 });
    try {
      const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
      expect(rows[0].db).toBe(direct().pathname.slice(1));
    } finally {
      await client.end();
    }
  });

  it('skips a host that starts the session and then answers nothing, after the connect timeout', async () => {
    const silent = new TcpProxy(direct().hostname, Number(direct().port || 5432), true);
    const hung = `127.0.0.1:${await silent.start()}`;
    try {
      const client = await openClient(listing([hung, here()], 'target_session_attrs=read-write'), { connectionTimeoutMillis: 1000 });
      try {
        // Connected to the second host, not through the silent one (where this query would never be answered).
        expect(client.port).toBe(Number(direct().port || 5432));
        const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
        expect(rows[0].db).toBe(direct().pathname.slice(1));
      } finally {
        await client.end();
      }
    } finally {
      await silent.cut();
    }
  });

  it('searches a host that failed after the others, so a hung first host costs the connect timeout once, not on every search', async () => {
    const hung = new TcpProxy(direct().hostname, Number(direct().port || 5432));
    const first = `127.0.0.1:${await hung.start()}`;
    hung.freeze();
    try {
      const locator = new PrimaryLocator(parseDatabaseUrl(listing([first, here()], 'target_session_attrs=read-write')), 500);
      const found = await locator.locate();
      expect([found.host, found.port, hung.accepted]).toEqual([direct().hostname, Number(direct().port || 5432), 1]);
      // Its connection lost (a failover, a backend ended): the next search starts with the host that answered.
      locator.forget(found);
      expect(await locator.locate()).toBe(found);
      expect(hung.accepted).toBe(1);
    } finally {
      hung.thaw();
      await hung.cut();
    }
  });

  it('refuses a read-only session for read-write with SQLSTATE 08001 (answered 503), and takes it for primary', async () => {
    // Every listed host answers with default_transaction_read_only on, as a server being demoted would.
    const readOnly = `target_session_attrs=read-write&options=${encodeURIComponent('-c default_transaction_read_only=on')}`;
    const refused = await openClient(listing([here()], readOnly), { connectionTimeoutMillis: 2000 }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: '08001', message: expect.stringContaining('accepts read-write sessions') });
    expect(classifyDependencyFailure(refused)).toBe('postgres');
    const primary = await openClient(listing([here()], readOnly.replace('read-write', 'primary')), { connectionTimeoutMillis: 2000 });
    await primary.end();
  });

  it('a pool whose host goes away fails that query (503) and reconnects to the next host by itself', async () => {
    const proxy = new TcpProxy(direct().hostname, Number(direct().port || 5432));
    const first = `127.0.0.1:${await proxy.start()}`;
    const options = pgConnectionOptions(listing([first, here()], 'target_session_attrs=read-write'), 2000);
    const pool = new Pool({ ...options, max: 2 });
    pool.on('error', () => undefined);
    const proxied = () => (proxy as unknown as { sockets: Set<unknown> }).sockets.size;
    try {
      const pids = async () => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const before = await pids();
      // The first listed host was taken: the pool's connection runs through the proxy.
      expect(proxied()).toBeGreaterThan(0);
      await proxy.cut();
      const during = await pids().catch((err: unknown) => err);
      expect(classifyDependencyFailure(during)).toBe('postgres');
      // The pool dropped the dead connection; the next one is made on the second host.
      const after = await pids();
      expect(after).not.toBe(before);
      expect(proxied()).toBe(0);
    } finally {
      await pool.end();
      await proxy.cut();
    }
  });
});
