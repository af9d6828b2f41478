/**
 * Writes a recurring problem once per interval with how many times it happened, not once per occurrence:
 * during an outage every PDU or retry fails the same way, and a line for each would bury everything else.
 * The first occurrence of a cause is written at once (count 1); later ones within the interval are counted
 * and written together when it ends (with the last one's details), which starts the next interval; a
 * cause that stops recurring is written again at once when it comes back.
 */
export class RepeatedLines {
  private readonly open = new Map<string, { count: number; meta: Record<string, unknown> }>();

  constructor(
    private readonly write: (msg: string, meta: Record<string, unknown>) => void,
    private readonly intervalMs = 1000,
  ) {}

  /** `key` tells apart causes written with the same text (one per periodic work item, say). */
  note(cause: string, meta: Record<string, unknown> = {}, key = cause): void {
    const window = this.open.get(key);
    if (window) {
      window.count++;
      window.meta = meta;
      return;
    }
    this.write(cause, { ...meta, count: 1 });
    this.startWindow(cause, key);
  }

  private startWindow(cause: string, key: string): void {
    this.open.set(key, { count: 0, meta: {} });
    setTimeout(() => this.closeWindow(cause, key), this.intervalMs).unref();
  }

  private closeWindow(cause: string, key: string): void {
    const window = this.open.get(key);
    this.open.delete(key);
    if (!window || window.count === 0) return;
    this.write(cause, { ...window.meta, count: window.count, withinMs: this.intervalMs });
    this.startWindow(cause, key);
  }
}
