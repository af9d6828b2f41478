import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The transaction handle services hand to repositories. Services never touch TypeORM (design rule 3):
 * they open units of work here and pass the handle along.
 */
export type Tx = EntityManager;

@Injectable()
export class UnitOfWork {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs work in one transaction. */
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Joins the caller's transaction when one is passed, else opens one, so services compose atomically. */
  runIn<T>(outer: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
    if (outer?.queryRunner?.isTransactionActive) return work(outer);
    return this.run(work);
  }

  /** True when PostgreSQL answers (health). */
  async ping(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
