import { Client, type Pool } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf } from '../../src/database/typeorm-pool';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * DATABASE_POOL_MIN: a service process opens that many connections before its first request or job, its
 * pool keeps them open when idle, and it opens them again after losing them; a process with 0 opens them
 * only as work needs them.
 */
describe('the database pool minimum', () => {
  let app: TestApp | undefined;
  const poolOfApp = (t: TestApp) => poolOf(t.app.get(DataSource));

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('opens DATABASE_POOL_MIN connections before the app takes requests, and keeps them open idle', async () => {
    app = await startTestApp({ databasePoolMin: 6, databasePoolSize: 8 });
    const pool = poolOfApp(app);
    expect(pool.totalCount).toBeGreaterThanOrEqual(6);
    // pg-pool closes idle connections after its idle timeout only while it holds more than this.
    expect(pool.options.min).toBe(6);
    // Every one of them is a live session of this process on the run's database.
    const ports = localPorts(pool);
    expect(ports.length).toBe(pool.totalCount);
    const rows: Array<{ sessions: number }> = await app.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE application_name = 'sms-api' AND client_port = ANY($1::int[])`, [ports]);
    expect(rows[0].sessions).toBe(ports.length);
    const res = await app.api.get('/health/live');
    expect(res.status).toBe(200);
  });

  it('opens them again after PostgreSQL ends its sessions (a restart, a failover), before any work asks', async () => {
    app = await startTestApp({ databasePoolMin: 4, databasePoolSize: 8, appRole: 'api' });
    const pool = poolOfApp(app);
    const before = localPorts(pool);
    expect(before.length).toBeGreaterThanOrEqual(4);
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows: ended } = await admin.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'sms-api' AND client_port = ANY($1::int[])`,
        [before],
      );
      expect(ended.length).toBe(before.length);
      // No request or job runs meanwhile: only the refill can open connections.
      const deadline = Date.now() + 10_000;
      let after: number[] = [];
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = localPorts(pool);
        // Idle again once opened and asked their query (a client counts from its connect's start).
        if (pool.idleCount >= 4 && after.length >= 4 && after.every((port) => !before.includes(port))) break;
      }
      expect(pool.idleCount).toBeGreaterThanOrEqual(4);
      expect(after.some((port) => before.includes(port))).toBe(false);
      const { rows } = await admin.query<{ sessions: number }>(
        `SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE application_name = 'sms-api' AND client_port = ANY($1::int[])`,
        [after],
      );
      expect(rows[0].sessions).toBe(after.length);
    } finally {
      await admin.end();
    }
  });

  it('never opens more than DATABASE_POOL_SIZE, whatever the minimum asks', async () => {
    app = await startTestApp({ databasePoolMin: 12, databasePoolSize: 3 });
    const pool = poolOfApp(app);
    expect(pool.options.min).toBe(3);
    expect(pool.totalCount).toBeLessThanOrEqual(3);
    expect(pool.totalCount).toBeGreaterThanOrEqual(1);
  });

  it('opens none ahead of work with a minimum of 0', async () => {
    app = await startTestApp({ databasePoolMin: 0, databasePoolSize: 8 });
    const pool = poolOfApp(app);
    expect(pool.options.min).toBe(0);
    // Starting the app took one connection; nothing opened the rest.
    expect(pool.totalCount).toBeLessThan(6);
  });
});

/** The local ports of the pool's connections (each client's socket), to find them in pg_stat_activity. */
function localPorts(pool: Pool): number[] {
  const clients = (pool as unknown as { _clients: Array<{ connection: { stream: { localPort?: number } } }> })._clients;
  return clients.map((c) => c.connection.stream.localPort).filter((p): p is number => typeof p === 'number');
}
