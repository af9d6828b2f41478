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
    if (this.held < this.size) {
      this.held++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
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
