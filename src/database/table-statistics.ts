import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Tables that grow by thousands of rows a second during a campaign. */
export type GrowingTable = 'messages' | 'message_parts';

/** A table is analysed again once rows written since its last ANALYZE reach this many… */
const MIN_ROWS = 1000;
/**
 * …and nine times as many as it had then (it grew tenfold). Between ANALYZEs the planner scales each
 * partition's analysed rows per page by its current pages, so row counts follow the table's growth;
 * what goes stale is the distributions, and the API's queries change plan with the table's order of
 * magnitude. The outcome and sweep statements plan by key whatever the statistics say (keyLookupsOnly),
 * the claim reads the send's due index, and the receipt statement needs message_parts analysed once
 * with rows in it (AT_ONCE below); a partition added later is planned by the parent's statistics.
 * ANALYZE of a partitioned table samples it twice (the parent's inherited statistics, then each
 * partition): on a fresh database a 50000-message campaign analysed messages 3 times and message_parts
 * 4 times at doubling, about 2.6 s of PostgreSQL, 0.4 to 0.65 s at tenfold.
 */
const GROWTH = 9;

/**
 * Whether a table's ANALYZE runs as soon as it is due. The receipt statement plans by message_parts'
 * statistics (whether `recent` is hashed for its NOT IN): unanalysed during a campaign, a 50000-message
 * campaign's receipts took 149 s of PostgreSQL instead of 2. Nothing on the dispatch path plans by the
 * statistics of messages (the claim reads the send's due index); the API's pages do, and they can wait
 * for a pause.
 */
const AT_ONCE: Readonly<Record<GrowingTable, boolean>> = { message_parts: true, messages: false };
/**
 * An ANALYZE that can wait waits until this process reported no rows for this long (a second without
 * a commit: a campaign's sends and dispatch commit several times a second)…
 */
export const QUIET_MS = 1000;
/** …but no longer than this after it became due (under steady traffic the writes never pause). */
export const MAX_WAIT_MS = 30_000;

/**
 * Keeps the planner's statistics of the dispatch tables current while a campaign fills them. A table
 * that has never been analysed, or has grown tenfold since, gets plans for the table it was (a sequential
 * scan for a page of one account's messages, say); autovacuum reacts in minutes, if it runs at all.
 * Writers report the rows they committed; once a table has grown tenfold (by at least 1000 rows)
 * this process ANALYZEs it, one table at a time, in the background: message_parts at once, messages when
 * the writes pause (QUIET_MS) or MAX_WAIT_MS after it became due. An ANALYZE of messages keeps a core
 * busy for 300 to 800 ms: at a campaign's first commit it would take it from the campaign's accepting and
 * dispatching, and from the API requests beside them.
 */
@Injectable()
export class TableStatistics implements OnModuleDestroy {
  private readonly logger = new Logger(TableStatistics.name);
  private readonly written = new Map<GrowingTable, number>();
  private readonly rowsAtAnalyze = new Map<GrowingTable, number>();
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastGrowthAt = 0;
  private dueSince: number | null = null;
  private closed = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `rows` rows were just committed into `table`. */
  grew(table: GrowingTable, rows: number): void {
    this.written.set(table, (this.written.get(table) ?? 0) + rows);
    this.lastGrowthAt = performance.now();
    // A table that cannot wait brings forward a timer already set for one that can.
    if (this.timer && AT_ONCE[table] && this.due().includes(table)) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.scheduleIfDue();
  }

  /** Resolves when no ANALYZE of this process is running (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.settled();
  }

  private scheduleIfDue(): void {
    if (this.closed || this.timer || this.running) return;
    const due = this.due();
    if (due.length === 0) return;
    if (due.some((table) => !AT_ONCE[table])) this.dueSince ??= performance.now();
    const runAt = due.some((table) => AT_ONCE[table]) ? 0 : this.pauseEndsAt();
    this.timer = setTimeout(() => this.whenTimerFires(), Math.max(0, runAt - performance.now()));
    this.timer.unref();
  }

  /** When the tables that can wait have waited enough: the writes paused, or MAX_WAIT_MS passed. */
  private pauseEndsAt(): number {
    return Math.min(this.lastGrowthAt + QUIET_MS, (this.dueSince ?? performance.now()) + MAX_WAIT_MS);
  }

  /** Analyses the due tables that may go now; rows reported meanwhile push a pause further out. */
  private whenTimerFires(): void {
    this.timer = null;
    const waited = performance.now() >= this.pauseEndsAt();
    const tables = this.due().filter((table) => AT_ONCE[table] || waited);
    if (tables.length === 0) return this.scheduleIfDue();
    if (waited) this.dueSince = null;
    this.running = this.analyze(tables).finally(() => {
      this.running = null;
      this.scheduleIfDue();
    });
  }

  private due(): GrowingTable[] {
    return [...this.written].filter(([table, n]) => n >= Math.max(MIN_ROWS, GROWTH * (this.rowsAtAnalyze.get(table) ?? 0))).map(([table]) => table);
  }

  private async analyze(tables: GrowingTable[]): Promise<void> {
    for (const table of tables) {
      if (this.closed) return;
      this.written.set(table, 0);
      try {
        await this.dataSource.query(`ANALYZE ${table}`);
        const [row] = (await this.dataSource.query(`SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = $1::regclass`, [table])) as Array<{ rows: number }>;
        this.rowsAtAnalyze.set(table, Math.max(0, row?.rows ?? 0));
      } catch (err) {
        this.logger.warn({ msg: 'table statistics not refreshed', table, err: (err as Error).message });
      }
    }
  }
}
