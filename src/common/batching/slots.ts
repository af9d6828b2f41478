/** A counting semaphore: at most `size` holders at once, the rest wait in arrival order. */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private size: number) {}

  /** Changes how many may hold at once: a bigger size admits waiters now; a smaller one admits none until enough are released. */
  resize(size: number): void {
    this.size = size;
    while (this.held < this.size && this.waiting.length > 0) {
      this.held++;
      this.waiting.shift()!();
    }
  }

  /** How many may hold at once. */
  get capacity(): number {
    return this.size;
  }

  async acquire(): Promise<void> {
    if (this.tryAcquire()) return;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Takes a slot now if one is free; false (and nothing taken) when every slot is held. */
  tryAcquire(): boolean {
    if (this.held >= this.size) return false;
    this.held++;
    return true;
  }

  /**
   * Runs `work` holding a slot, released once it settles. With a slot free it starts in this very turn (its
   * first effects are visible when run() returns); otherwise when a slot is handed over, in arrival order.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    let started: Promise<T>;
    if (!this.tryAcquire()) started = this.acquire().then(work);
    else {
      try {
        started = work();
      } catch (err) {
        started = Promise.reject(err as Error);
      }
    }
    return started.finally(() => this.release());
  }

  /** Hands the slot to the next waiter, if any. */
  release(): void {
    if (this.held > this.size) {
      this.held--;
      return;
    }
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}
