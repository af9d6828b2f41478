import { Client } from 'pg';
import { deleteRedisKeys } from './test-env';

/** Drops the run's template and any per-file database left behind, and the run's Redis keys. */
export default async function globalTeardown(): Promise<void> {
  const template = new URL(process.env.TEST_TEMPLATE_DATABASE_URL!);
  const run = template.pathname.slice(1);
  if (process.env.TEST_KEEP_DATABASE !== 'true') {
    const admin = new URL(template.toString());
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`, [run, `${run}\\_f%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
  await deleteRedisKeys(process.env.REDIS_URL!, process.env.TEST_RUN_REDIS_PREFIX!);
}
