import { Client } from 'pg';
import { freePort } from '../support/free-port';
import { runCli, runCliWithEnv } from '../support/run-cli';

// Each CLI call is a process of its own.
jest.setTimeout(120_000);

/**
 * PostgreSQL or Redis out of reach: one `error:` line naming the host and port tried (never a password or a
 * URL), exit 1, and none of Nest's log. LOG_LEVEL is the CLI's default (warn), not the tests' silent.
 */
describe('Operator CLI without its dependencies', () => {
  let db: Client;
  let closed: number;

  beforeAll(async () => {
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    closed = await freePort();
  });
  afterAll(() => db.end());

  const asOperator = (env: Record<string, string>, ...args: string[]) => runCliWithEnv({ LOG_LEVEL: 'warn', ...env }, ...args);

  describe('Redis at a closed port', () => {
    const redisDown = () => ({ REDIS_URL: `redis://:redis-secret@127.0.0.1:${closed}/0` });

    it.each([[['carrier:status']], [['route:explain', '--to', '61412345678', '--sender', 'Harbour', '--account', '1']]])(
      '%j needs Redis: one line naming it, exit 1, nothing on stdout',
      async (args) => {
        const res = await asOperator(redisDown(), ...args);
        expect([res.code, res.stdout, res.stderr]).toEqual([1, '', `error: Redis at 127.0.0.1:${closed} is not reachable\n`]);
      },
    );

    it('account:release-brake works on the database alone: it releases the account, quietly', async () => {
      const account = (await runCli('account:create', '--name', 'Braked Co')).json.account_id as number;
      await db.query(
        `INSERT INTO sending_brakes (account_id, hour_start, hour_count, paused_at, paused_volume, paused_limit) VALUES ($1, date_trunc('hour', now()), 30, now(), 30, 20)`,
        [account],
      );
      const res = await asOperator(redisDown(), 'account:release-brake', '--account', String(account));
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(res.json).toMatchObject({ account_id: account, released: true, paused_volume: 30 });
      expect((await db.query(`SELECT paused_at FROM sending_brakes WHERE account_id = $1`, [account])).rows).toEqual([{ paused_at: null }]);
    });
  });

  describe('PostgreSQL at a closed port', () => {
    const pgDown = () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.username = 'operator';
      url.password = 'pg-secret';
      url.host = `127.0.0.1:${closed}`;
      return { DATABASE_URL: url.toString() };
    };

    it.each([[['account:show', '--account', '1']], [['db:migrate']], [['carrier:status']]])('%j names the address it tried, never the password', async (args) => {
      const res = await asOperator(pgDown(), ...args);
      expect([res.code, res.stdout, res.stderr]).toEqual([1, '', `error: PostgreSQL at 127.0.0.1:${closed} is not reachable (ECONNREFUSED)\n`]);
    });
  });
});
