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
 */
export class GroupCommit<T> {
  private items: T[] = [];
  private waiters: Waiter[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: GroupCommitOptions,
  ) {}

  add(items: T | T[]): Promise<void> {
    return new Promise((resolve, reject) => {
      if (Array.isArray(items)) this.items.push(...items);
      else this.items.push(items);
      this.waiters.push({ resolve, reject });
      if (this.items.length >= this.options.maxItems) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.options.maxWaitMs);
    });
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    if (waiters.length === 0) return;
    try {
      await this.write(items);
      for (const w of waiters) w.resolve();
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  }
}
