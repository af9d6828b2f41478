import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

type AfterCommit = () => unknown;

/**
 * One open transaction: the handle services pass to repositories (only repositories reach `manager`),
 * and where side effects that must follow the commit are registered (enqueue a job, wake a deliverer).
 */
export class Tx {
  private readonly hooks: AfterCommit[] = [];

  constructor(readonly manager: EntityManager) {}

  /** Runs `fn` once this transaction has committed; never if it rolls back. */
  afterCommit(fn: AfterCommit): void {
    this.hooks.push(fn);
  }

  /** @internal Called by UnitOfWork after the commit. */
  takeHooks(): AfterCommit[] {
    return this.hooks.splice(0);
  }
}

@Injectable()
export class UnitOfWork {
  private readonly logger = new Logger(UnitOfWork.name);
  private savepoints = 0;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs work in one transaction, then its after-commit hooks in order. A hook's failure is logged and
   * never undoes or fails the committed work (whatever a hook does, a sweeper can redo from PostgreSQL).
   */
  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let tx: Tx | undefined;
    const result = await this.dataSource.transaction((manager) => {
      tx = new Tx(manager);
      return work(tx);
    });
    for (const hook of tx!.takeHooks()) {
      try {
        await hook();
      } catch (err) {
        this.logger.warn({ msg: 'after-commit hook failed', err: (err as Error).message });
      }
    }
    return result;
  }

  /** Joins the caller's transaction when one is passed (its hooks then wait for that commit), else opens one. */
  runIn<T>(outer: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
    if (outer?.manager.queryRunner?.isTransactionActive) return work(outer);
    return this.run(work);
  }

  /**
   * Runs part of an open transaction under a savepoint: when `work` throws, what it wrote is undone
   * and the error rethrown, and the rest of the transaction carries on (an auto-reply the account
   * cannot pay for never undoes storing the message it answers).
   */
  async savepoint<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepoints}`;
    await tx.manager.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await tx.manager.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await tx.manager.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw err;
    }
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
