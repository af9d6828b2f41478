import type { HostRooms } from './claim-planner';

/**
 * At most `limit` deliveries in flight per receiving host, with a bounded queue behind them. A host whose
 * queue is full gets no more work from this process for now (the caller defers the event), so a slow
 * receiver occupies only its own slots and queue, never everyone's.
 */
export class HostLimiter implements HostRooms {
  private readonly hosts = new Map<string, { active: number; waiting: Array<() => void> }>();

  constructor(
    private readonly limit: number,
    private readonly maxQueued: number,
  ) {}

  /** Runs the task under the host's limit, or returns null at once when the host's queue is full. */
  tryRun<T>(host: string, task: () => Promise<T>): Promise<T> | null {
    const state = this.hosts.get(host) ?? { active: 0, waiting: [] };
    if (state.active >= this.limit && state.waiting.length >= this.maxQueued) return null;
    this.hosts.set(host, state);
    const start = async (): Promise<T> => {
      state.active++;
      try {
        return await task();
      } finally {
        state.active--;
        const next = state.waiting.shift();
        if (next) next();
        else if (state.active === 0) this.hosts.delete(host);
      }
    };
    if (state.active < this.limit) return start();
    return new Promise<void>((resolve) => state.waiting.push(resolve)).then(start);
  }

  /**
   * Starts every queued task now, past the limit: for a stop, whose tasks start no delivery (they answer at
   * once), so what waits behind a slow host is given back without waiting for a slot.
   */
  startQueued(): void {
    for (const state of this.hosts.values()) for (const start of state.waiting.splice(0)) start();
  }

  /** Hosts with deliveries running or queued. */
  busyHosts(): IterableIterator<string> {
    return this.hosts.keys();
  }

  /** What one host holds at once: its connections plus its queue. */
  get capacity(): number {
    return this.limit + this.maxQueued;
  }

  /** Places left for this host: connections plus queue, less what runs and waits. */
  free(host: string): number {
    const state = this.hosts.get(host);
    return this.capacity - (state ? state.active + state.waiting.length : 0);
  }
}
