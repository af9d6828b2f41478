export interface GroupCommitOptions {
  /** Write as soon as this many items are waiting. */
  maxItems: number;
  /** Or this long after the first item of a group arrived. */
  maxWaitMs: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: items added within a few milliseconds are written together in one call, and each add()
 * resolves only once the write that carried its items has succeeded (or rejects with its error). So
 * callers can acknowledge upstream only after a commit, without paying a transaction per item.
 *
 * One write at a time: what arrives while a write is under way is written by the next one, started as
 * soon as the first ends if its group is already due (full, or waited maxWaitMs). So the busier the
 * database, the larger and fewer the writes, instead of more transactions competing for it.
 */
export class GroupCommit<T> {
  private items: T[] = [];
  private waiters: Waiter[] = [];
  private timer?: NodeJS.Timeout;
  private writing = false;
  /** The waiting group became due while a write was under way. */
  private due = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: GroupCommitOptions,
  ) {}

  add(items: T | T[]): Promise<void> {
    return new Promise((resolve, reject) => {
      if (Array.isArray(items)) this.items.push(...items);
      else this.items.push(items);
      this.waiters.push({ resolve, reject });
      if (this.items.length >= this.options.maxItems) this.groupDue();
      else this.timer ??= setTimeout(() => this.groupDue(), this.options.maxWaitMs);
    });
  }

  private groupDue(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) this.due = true;
    else void this.flush();
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    this.due = false;
    if (waiters.length === 0) return;
    this.writing = true;
    try {
      await this.write(items);
      for (const w of waiters) w.resolve();
    } catch (err) {
      for (const w of waiters) w.reject(err);
    } finally {
      this.writing = false;
    }
    if (this.due) void this.flush();
  }
}
