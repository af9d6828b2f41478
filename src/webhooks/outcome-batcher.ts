/**
 * Group commit for items nobody waits on one by one (webhook attempts' outcomes): one write once `every`
 * are waiting, or `afterMs` after the first of a group, and one write at a time, in the order the groups
 * were taken. Unlike GroupCommit (common/batching), adding makes no promise per item: a burst records
 * thousands of outcomes a second, and what follows an outcome's write is the write's own business.
 */
export class OutcomeBatcher<T> {
  private pending: T[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    /** A write that threw: reported here, and the writes after it still run. */
    private readonly onFailed: (err: unknown) => void,
    private readonly every: number,
    private readonly afterMs: number,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.every) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.afterMs);
  }

  /** Starts writing what is waiting now; resolves once every write started so far has ended. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.writing = this.writing.then(() => this.write(batch)).catch((err: unknown) => this.report(err));
    return this.writing;
  }

  /** The chain never rejects, even should reporting throw: a rejected link would skip every write after it. */
  private report(err: unknown): void {
    try {
      this.onFailed(err);
    } catch {
      // Nothing left to tell; the next writes run.
    }
  }
}
