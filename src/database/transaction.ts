import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs work in one transaction, reusing the caller's when one is passed, so a service can compose
 * repository calls (debit + inserts + ledger row) atomically.
 */
export async function inTransaction<T>(dataSource: DataSource, manager: EntityManager | undefined, work: (m: EntityManager) => Promise<T>): Promise<T> {
  if (manager?.queryRunner?.isTransactionActive) return work(manager);
  return dataSource.transaction(work);
}
