import { nextBulkTurn } from '../common/concurrency/bulk-turns';
import { SLICE } from '../common/concurrency/slices';
import { uuid7 } from '../common/ids/uuid7';
import type { ComposedEntry } from './message-rules';
import type { NewMessage } from './messages.repository';
import type { StreamedMessages } from './send-writer.service';
import type { SendTotals } from './sends.repository';

type SendableEntry = Extract<ComposedEntry, { ok: true }>;

/**
 * A batch's messages made from its entries a slice at a time: each entry composed when its slice is asked
 * for, and each sendable one given its id and its row, in entry order. Handed to the writer as it is
 * (StreamedMessages), the entries are composed while PostgreSQL stores the slices before; `all()` makes
 * every row first, for a send that needs them all before it is stored (its links, its quiet hours).
 */
export class BatchRows implements StreamedMessages {
  /** What each entry became, once its slice is made. */
  readonly composed: ComposedEntry[];
  /** Each sendable entry's message id, once its slice is made. */
  readonly ids: Array<string | undefined>;
  private readonly rows: NewMessage[] = [];
  private made = 0;
  private totalCost = 0;
  private blocked = 0;

  /**
   * `compose(i)`: what entry i becomes; `onRow`: called for each sendable entry as it gets its id and its
   * place among the rows (a send's links are tied to them).
   */
  constructor(
    count: number,
    private readonly compose: (index: number) => ComposedEntry,
    private readonly now: Date,
    private readonly onRow?: (entry: SendableEntry, id: string, row: number, index: number) => void,
    private readonly sliceSize = SLICE,
  ) {
    this.composed = new Array<ComposedEntry>(count);
    this.ids = new Array<string | undefined>(count).fill(undefined);
  }

  nextSlice(): NewMessage[] | null {
    if (this.made >= this.composed.length) return null;
    const end = Math.min(this.composed.length, this.made + this.sliceSize);
    const slice: NewMessage[] = [];
    for (let i = this.made; i < end; i++) {
      const entry = this.compose(i);
      this.composed[i] = entry;
      if (!entry.ok) {
        if (entry.blocked) this.blocked++;
        continue;
      }
      const id = uuid7();
      this.ids[i] = id;
      this.onRow?.(entry, id, this.rows.length, i);
      const row: NewMessage = {
        id,
        to: entry.to,
        sender: entry.sender,
        senderType: entry.senderType,
        body: entry.text,
        customRef: entry.customRef ?? null,
        status: entry.scheduledAt ? 'scheduled' : 'pending',
        encoding: entry.encoding,
        parts: entry.parts,
        cost: entry.cost,
        scheduledFor: entry.scheduledAt,
        dispatchAt: entry.scheduledAt ?? this.now,
      };
      this.rows.push(row);
      slice.push(row);
      this.totalCost += entry.cost;
    }
    this.made = end;
    return slice;
  }

  /** Every row, the slices made a turn of the event loop apart. */
  async all(): Promise<NewMessage[]> {
    while (this.nextSlice() !== null) if (this.made < this.composed.length) await nextBulkTurn();
    return this.rows;
  }

  totals(): SendTotals {
    if (this.made < this.composed.length) throw new Error('a batch’s totals are known once every slice is made');
    return { messageCount: this.rows.length, totalCost: this.totalCost, blockedCount: this.blocked };
  }
}
