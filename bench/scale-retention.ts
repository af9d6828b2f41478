import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';

/** bench:scale's retention figure: the time to drop the oldest month of history. */
export async function measureMonthDrop(app: NestFastifyApplication, _auth: string): Promise<string> {
  const ds = app.get(DataSource);
  const [{ partitioned }] = await ds.query(`SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'messages'::regclass) AS partitioned`);
  if (!partitioned) return 'drop the oldest month: n/a: tables not partitioned';
  return 'drop the oldest month: not measured yet';
}
