import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Tables that grow by thousands of rows a second during a campaign. */
export type GrowingTable = 'messages' | 'message_parts';

/** A table is analysed again once rows written since its last ANALYZE reach this many… */
const MIN_ROWS = 1000;
/** …and this share of the rows it had then. */
const GROWTH = 0.2;

/**
 * Keeps the planner's statistics of the dispatch tables current while a campaign fills them. A table
 * that has never been analysed, or has grown tenfold since, gets plans for the table it was (a hash join
 * over every part to apply 500 receipts, say); autovacuum reacts in minutes, if it runs at all. Writers
 * report the rows they committed; once a table has grown by a fifth (and at least 1000 rows) this
 * process ANALYZEs it, one table at a time, in the background.
 */
@Injectable()
export class TableStatistics {
  private readonly logger = new Logger(TableStatistics.name);
  private readonly written = new Map<GrowingTable, number>();
  private readonly rowsAtAnalyze = new Map<GrowingTable, number>();
  private running: Promise<void> | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `rows` rows were just committed into `table`. */
  grew(table: GrowingTable, rows: number): void {
    this.written.set(table, (this.written.get(table) ?? 0) + rows);
    if (!this.running && this.due().length > 0) this.running = this.analyzeDue().finally(() => (this.running = null));
  }

  /** Resolves when no ANALYZE of this process is running (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private due(): GrowingTable[] {
    return [...this.written].filter(([table, n]) => n >= Math.max(MIN_ROWS, GROWTH * (this.rowsAtAnalyze.get(table) ?? 0))).map(([table]) => table);
  }

  private async analyzeDue(): Promise<void> {
    for (let tables = this.due(); tables.length > 0; tables = this.due()) {
      for (const table of tables) {
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
}
