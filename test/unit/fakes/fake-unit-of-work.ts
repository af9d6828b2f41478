import type { EntityManager } from 'typeorm';
import { Tx, UnitOfWork } from '../../../src/database/unit-of-work';
import { Journal } from './journal';
import { UnexpectedCall } from './strict';

/** No database in unit tests: a fake repository never touches the manager, so an empty one will do. */
const NO_DATABASE = Object.freeze(Object.create(null)) as EntityManager;

/** A transaction of FakeUnitOfWork: open until its work settles, then committed or rolled back. */
export class FakeTx extends Tx {
  state: 'open' | 'committed' | 'rolledBack' = 'open';
  private readonly undo: Array<() => void> = [];

  constructor(readonly label: string) {
    super(NO_DATABASE);
  }

  /** How a fake repository takes back its writes when the transaction rolls back. */
  onRollback(fn: () => void): void {
    this.undo.push(fn);
  }

  /** @internal FakeUnitOfWork */
  settle(outcome: 'committed' | 'rolledBack'): void {
    this.state = outcome;
    const undo = this.undo.splice(0).reverse();
    if (outcome === 'rolledBack') for (const fn of undo) fn();
  }
}

/** The transaction a fake collaborator was handed, which must be a FakeTx that is still open. */
export function openTx(call: string, tx: Tx | undefined): FakeTx {
  if (!(tx instanceof FakeTx)) throw new UnexpectedCall(call, 'expected the open transaction, got none (or a real one)');
  if (tx.state !== 'open') throw new UnexpectedCall(call, `transaction ${tx.label} is already ${tx.state}`);
  return tx;
}

/**
 * UnitOfWork without PostgreSQL: run() hands the work a FakeTx; when the work resolves the transaction
 * commits and its after-commit hooks run in order (a hook's failure is swallowed, as the real one logs
 * it); when the work rejects it rolls back and no hook runs.
 */
export class FakeUnitOfWork implements Pick<UnitOfWork, 'run'> {
  readonly transactions: FakeTx[] = [];

  constructor(private readonly journal = new Journal()) {}

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const tx = new FakeTx(`tx${this.transactions.length + 1}`);
    this.transactions.push(tx);
    this.journal.record(`begin ${tx.label}`);
    let result: T;
    try {
      result = await work(tx);
    } catch (err) {
      tx.settle('rolledBack');
      this.journal.record(`rollback ${tx.label}`);
      throw err;
    }
    tx.settle('committed');
    this.journal.record(`commit ${tx.label}`);
    for (const hook of tx.takeHooks()) {
      try {
        await hook();
      } catch {
        // The real UnitOfWork logs and carries on: the commit stands.
      }
    }
    return result;
  }

  /** The only transaction the test expected to be opened. */
  get onlyTransaction(): FakeTx {
    if (this.transactions.length !== 1) throw new Error(`expected exactly one transaction, saw ${this.transactions.length}`);
    return this.transactions[0];
  }
}
