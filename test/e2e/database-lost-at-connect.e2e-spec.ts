import { Client, type ClientConfig, Pool } from 'pg';
import { pgConnectionOptions } from '../../src/database/primary-locator';

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

  /**
   * The service's client class, made to read the server's first answers in one go: after sending its
   * startup message it holds the event loop while PostgreSQL (told to end sessions idle for 1 ms) sends
   * ready-for-query and then the FATAL that ends the session.
   */
  function slowReader(base: typeof Client): typeof Client {
    return class SlowReader extends base {
      constructor(config?: string | ClientConfig) {
        super(config);
        const connection = (this as unknown as { connection: { startup(conf: unknown): void } }).connection;
        const startup = connection.startup.bind(connection);
        connection.startup = (conf) => {
          startup(conf);
          const until = Date.now() + 150;
          while (Date.now() < until) {
            // both messages arrive meanwhile
          }
        };
      }
    };
  }

  async function connectEndedAtReady(url: string): Promise<{ outcome: unknown; clientsLeft: number }> {
    const options = pgConnectionOptions(url, 5000);
    const pool = new Pool({ ...options, Client: slowReader(options.Client), options: '-c idle_session_timeout=1', max: 2 });
    const errors: Error[] = [];
    pool.on('error', (err) => errors.push(err));
    try {
      let outcome: unknown;
      try {
        const client = await pool.connect();
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
      await pool.end();
    }
  }

  it.each([
    ['a single-host URL', () => process.env.DATABASE_URL!],
    ['a multi-host URL', multiHost],
  ])('with %s, the process goes on and the connection is dropped', async (_form, url) => {
    const { outcome, clientsLeft } = await connectEndedAtReady(url());
    expect(outcome).toMatch(/not queryable|idle-session timeout|Connection terminated/);
    expect(clientsLeft).toBe(0);
  });

  it('the same client class without the session timeout connects and answers (the test itself changes nothing else)', async () => {
    const options = pgConnectionOptions(process.env.DATABASE_URL!, 5000);
    const pool = new Pool({ ...options, Client: slowReader(options.Client), max: 1 });
    try {
      const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
