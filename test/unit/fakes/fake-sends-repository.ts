import type { Tx } from '../../../src/database/unit-of-work';
import type { NewSend, SendsRepository } from '../../../src/messaging/sends.repository';
import { openTx } from './fake-unit-of-work';
import { Journal } from './journal';

/** SendsRepository's inserts: numbers send rows from `firstId`, inside the open transaction; a form key is unique per account. */
export class FakeSendsRepository implements Pick<SendsRepository, 'insert' | 'insertUnlessFormKeyUsed' | 'findByFormKey' | 'setTotals'> {
  readonly rows: Array<NewSend & { id: number }> = [];
  private nextId: number;

  constructor(
    private readonly journal = new Journal(),
    firstId = 501,
  ) {
    this.nextId = firstId;
  }

  async insert(send: NewSend, tx: Tx): Promise<number> {
    const id = await this.insertUnlessFormKeyUsed(send, tx);
    if (id === null) throw new Error('form key used');
    return id;
  }

  async insertUnlessFormKeyUsed(send: NewSend, tx: Tx): Promise<number | null> {
    const open = openTx('SendsRepository.insert', tx);
    this.journal.record('sends.insert');
    if (send.formKey && this.rows.some((r) => r.accountId === send.accountId && r.formKey === send.formKey)) return null;
    const row = { ...send, id: this.nextId++ };
    this.rows.push(row);
    open.onRollback(() => this.rows.splice(this.rows.indexOf(row), 1));
    return row.id;
  }

  async setTotals(accountId: number, sendId: number, totals: Pick<NewSend, 'messageCount' | 'totalCost' | 'blockedCount'>, tx: Tx): Promise<void> {
    openTx('SendsRepository.setTotals', tx);
    this.journal.record('sends.setTotals');
    const row = this.rows.find((r) => r.accountId === accountId && r.id === sendId);
    if (!row) throw new Error(`account ${accountId} has no send ${sendId}`);
    Object.assign(row, { messageCount: totals.messageCount, totalCost: totals.totalCost, blockedCount: totals.blockedCount ?? 0 });
  }

  async findByFormKey(accountId: number, formKey: string, tx: Tx): Promise<number | null> {
    openTx('SendsRepository.findByFormKey', tx);
    return this.rows.find((r) => r.accountId === accountId && r.formKey === formKey)?.id ?? null;
  }
}
