import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { bucketStart, parsePartitionName } from '../src/database/partitioning/partition-bounds';
import { PartitionMaintenanceRepository } from '../src/partitions/partition-maintenance.repository';
import { PARTITIONED_TABLES } from '../src/partitions/partitioned-tables';

/**
 * bench:scale's retention figure: for each table in PARTITIONED_TABLES, the time to detach and drop its
 * oldest bucket partition as the maintenance does (DETACH CONCURRENTLY, DROP TABLE), and meanwhile the
 * longest wait of the lock every send's foreign-key checks take on `accounts` (FOR KEY SHARE), probed in a
 * loop: the stall a drop puts on sends.
 */
export async function measureMonthDrop(app: NestFastifyApplication, _auth: string): Promise<string> {
  const ds = app.get(DataSource);
  const repo = new PartitionMaintenanceRepository(ds);
  const [{ id: accountId }] = await ds.query(`SELECT min(id) AS id FROM accounts`);
  const lines: string[] = [];
  for (const spec of PARTITIONED_TABLES) {
    const names: string[] = (await ds.query(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass($1)`, [spec.table])).map(
      (r: { relname: string }) => r.relname,
    );
    const oldest = names
      .map((name) => ({ name, start: parsePartitionName(spec.table, spec.bucket, name) }))
      // Only a bucket before the current one: the bench's history may sit in the catch-all, and the current bucket takes the sends.
      .filter((p) => p.start !== null && p.start.getTime() < bucketStart(new Date(), spec.bucket).getTime())
      .sort((a, b) => a.start!.getTime() - b.start!.getTime())[0];
    if (!oldest) {
      lines.push(`drop the oldest ${spec.bucket} of ${spec.table}: n/a (no bucket partition before the current one; older history is in the catch-all)`);
      continue;
    }
    const [{ rows, bytes }] = await ds.query(`SELECT greatest(reltuples, 0)::bigint AS rows, pg_total_relation_size(oid) AS bytes FROM pg_class WHERE relname = $1`, [oldest.name]);
    let probing = true;
    let longestProbeMs = 0;
    let probes = 0;
    const probe = (async () => {
      while (probing) {
        const t0 = performance.now();
        await ds.query(`SELECT id FROM accounts WHERE id = $1 FOR KEY SHARE`, [accountId]);
        longestProbeMs = Math.max(longestProbeMs, performance.now() - t0);
        probes++;
      }
    })();
    const started = performance.now();
    let outcome = 'dropped';
    try {
      // DETACH CONCURRENTLY is refused beside a DEFAULT partition (messages, message_parts): a plain one then, as the maintenance does.
      const [{ withDefault }] = await ds.query(`SELECT partdefid <> 0 AS "withDefault" FROM pg_partitioned_table WHERE partrelid = $1::regclass`, [spec.table]);
      const followUp = spec.onDrop ? { sql: spec.onDrop, bucketStart: oldest.start! } : undefined;
      const ran = await repo.withLock((session) => session.detachAndDrop(spec.table, oldest.name, !withDefault, followUp));
      if (ran === null) outcome = 'skipped: maintenance lock held elsewhere';
    } catch (err) {
      outcome = `failed: ${(err as Error).message}`;
    }
    const ms = performance.now() - started;
    probing = false;
    await probe;
    lines.push(
      `drop the oldest ${spec.bucket} of ${spec.table} (${oldest.name}, ~${rows} rows, ${(Number(bytes) / 1e6).toFixed(1)} MB): ${ms.toFixed(0)} ms, ${outcome}` +
        ` (goal <= 1000 ms); longest accounts FOR KEY SHARE meanwhile ${longestProbeMs.toFixed(1)} ms over ${probes} probes`,
    );
  }
  return lines.length ? lines.join('\n') : 'drop the oldest month: n/a: no table partitioned';
}
