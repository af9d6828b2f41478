import type { Tx } from '../../../src/database/unit-of-work';
import type { NewSend, SendsRepository } from '../../../src/messaging/sends.repository';
import { openTx } from './fake-unit-of-work';
import { Journal } from './journal';

/** SendsRepository.insert: numbers send rows from `firstId`, inside the open transaction. */
export class FakeSendsRepository implements Pick<SendsRepository, 'insert'> {
  readonly rows: Array<NewSend & { id: number }> = [];
  private nextId: number;

  constructor(
    private readonly journal = new Journal(),
    firstId = 501,
  ) {
    this.nextId = firstId;
  }

  async insert(send: NewSend, tx: Tx): Promise<number> {
    const open = openTx('SendsRepository.insert', tx);
    this.journal.record('sends.insert');
    const row = { ...send, id: this.nextId++ };
    this.rows.push(row);
    open.onRollback(() => this.rows.splice(this.rows.indexOf(row), 1));
    return row.id;
  }
}
