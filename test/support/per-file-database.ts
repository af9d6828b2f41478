import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { dropDatabase } from './test-env';

/**
 * Runs in every e2e test file: copies the run's migrated template into a database of the file's own
 * and gives the file its own Redis prefix, so dispatch workers and sweepers of one file never touch
 * another file's messages.
 */
let fileDatabaseUrl: string | undefined;

beforeAll(async () => {
  const template = new URL(process.env.TEST_TEMPLATE_DATABASE_URL!);
  const suffix = randomBytes(4).toString('hex');
  const name = `${template.pathname.slice(1)}_f${suffix}`;
  const admin = new URL(template.toString());
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template.pathname.slice(1)}"`);
  } finally {
    await client.end();
  }
  const url = new URL(template.toString());
  url.pathname = `/${name}`;
  fileDatabaseUrl = url.toString();
  process.env.DATABASE_URL = fileDatabaseUrl;
  process.env.REDIS_PREFIX = `${process.env.TEST_RUN_REDIS_PREFIX}:f${suffix}`;
});

afterAll(async () => {
  if (fileDatabaseUrl && process.env.TEST_KEEP_DATABASE !== 'true') await dropDatabase(fileDatabaseUrl);
});
