import { Client, type ClientConfig, Pool } from 'pg';
import { pgConnectionOptions } from '../../src/database/primary-locator';
import { until } from '../support/wait';

/**
 * A connection that PostgreSQL ends the moment it is ready (a backend ended by pg_terminate_backend, or one
 * that finds its postmaster killed by a failover, as soon as it goes idle), on the real PostgreSQL. The
 * ready-for-query and the FATAL that ends the session can reach node in one read; the parser then reports
 * the end before whoever asked the pool for the connection has had a turn to listen for it, and pg-pool has
 * already taken its own listener off. An 'error' nobody listens to ends the process: a worker crashed that
 * way mid-failover in CI, and the work it held was sent again. The service's clients always listen: the
 * connection is dropped, and whoever asked gets an error.
 */
describe('a connection ended by PostgreSQL as it becomes ready', () => {
  const direct = () => new URL(process.env.DATABASE_URL!);
  const multiHost = () => {
    const url = direct();
    return `postgres://${url.username}@${url.hostname}:${url.port || 5432}${url.pathname}?target_session_attrs=read-write`;
  };

  /** A connection whose socket is paused: it buffers what arrives, and hands it to the client only at resume. */
  interface Held {
    resume(): void;
    /** The server's end of the socket is buffered too: everything the server sent is waiting. */
    endBuffered(): boolean;
  }

  /**
   * The service's client class, made to hand nothing from the server to its parser after sending its startup
   * message until `resume` is called: what PostgreSQL sent meanwhile is then parsed in one go (the buffered
   * chunks are emitted by one synchronous loop, with no turn for anyone between them).
   */
  function heldReader(base: typeof Client, held: Held[]): typeof Client {
    type Stream = { pause(): void; resume(): void; _readableState: { ended: boolean } };
    return class HeldReader extends base {
      constructor(config?: string | ClientConfig) {
        super(config);
        const connection = (this as unknown as { connection: { startup(conf: unknown): void; stream: Stream } }).connection;
        const startup = connection.startup.bind(connection);
        connection.startup = (conf) => {
          startup(conf);
          const stream = connection.stream;
          stream.pause();
          held.push({ resume: () => stream.resume(), endBuffered: () => stream._readableState.ended });
        };
      }
    };
  }

  /**
   * Asks a pool of the service's clients for a connection, and while the client reads nothing, lets its
   * backend answer the startup (ready for query, idle), ends it with pg_terminate_backend and waits for it to
   * be gone: its ready-for-query and its FATAL then wait in the socket together.
   */
  async function connectEndedAtReady(url: string): Promise<{ outcome: string; clientsLeft: number }> {
    const options = pgConnectionOptions(url, 5000);
    const name = `lost-at-connect-${process.pid}-${Date.now()}`;
    const held: Held[] = [];
    const pool = new Pool({ ...options, Client: heldReader(options.Client, held), application_name: name, max: 2 });
    const observer = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      const asked = pool.connect();
      let pid: number | undefined;
      await until(
        async () => {
          const { rows } = await observer.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle'`, [name]);
          pid = rows[0]?.pid;
          return pid !== undefined;
        },
        'the backend to be ready',
        10_000,
        10,
      );
      await observer.query('SELECT pg_terminate_backend($1)', [pid]);
      await until(async () => (await observer.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [pid])).rows.length === 0, 'the backend to be gone', 10_000, 10);
      expect(held).toHaveLength(1);
      // The backend is gone once it sent its FATAL, but this process may not have read it yet: resumed before,
      // the client would hear the ready-for-query alone, be handed over and send its query, and only then
      // the FATAL (a flake seen in CI under load). A paused socket still reads into its buffer, up to its end.
      await until(() => held[0].endBuffered(), 'the FATAL and the end of the socket to be buffered', 10_000, 10);
      held[0].resume();
      let outcome: string;
      try {
        const client = await asked;
        // A client handed over already ended: its query fails, and released it leaves the pool.
        outcome = await client.query('SELECT 1').then(
          () => 'answered',
          (err: Error) => err.message,
        );
        client.release();
      } catch (err) {
        outcome = (err as Error).message;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { outcome, clientsLeft: pool.totalCount };
    } finally {
      await Promise.all([pool.end(), observer.end()]);
    }
  }

  it.each([
    ['a single-host URL', () => process.env.DATABASE_URL!],
    ['a multi-host URL', multiHost],
  ])('with %s, the process goes on and the connection is dropped', async (_form, url) => {
    const { outcome, clientsLeft } = await connectEndedAtReady(url());
    // Only a client that heard its end while being handed over says this (a query sent before the end
    // would fail with the FATAL's own text instead).
    expect(outcome).toBe('Client has encountered a connection error and is not queryable');
    expect(clientsLeft).toBe(0);
  });

  it('the same client class, not ended, connects and answers (the test itself changes nothing else)', async () => {
    const options = pgConnectionOptions(process.env.DATABASE_URL!, 5000);
    const held: Held[] = [];
    const pool = new Pool({ ...options, Client: heldReader(options.Client, held), max: 1 });
    try {
      const answer = pool.query<{ one: number }>('SELECT 1 AS one');
      await until(() => held.length === 1, 'the startup to be sent', 10_000, 10);
      held[0].resume();
      expect((await answer).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
