/** What the soak measured in one minute. */
export class MinuteStats {
  readonly latencies: number[] = [];
  readonly errors: Record<number, number> = {};
  count = 0;
  rssMb = 0;
  delivered = 0;
  webhooks = 0;

  constructor(readonly minute: number) {}

  record(ms: number, status: number): void {
    this.count++;
    this.latencies.push(ms);
    if (status < 200 || status >= 300) this.errors[status] = (this.errors[status] ?? 0) + 1;
  }

  line(): string {
    const p = (q: number) => percentile(this.latencies, q).toFixed(1).padStart(6);
    const errors = JSON.stringify(this.errors).padEnd(22);
    return `${String(this.minute).padStart(6)}  ${String(this.count).padStart(8)}  ${errors} ${p(50)}  ${p(95)}  ${p(99)}  ${p(100)}  ${this.rssMb.toFixed(0).padStart(6)}  ${String(this.delivered).padStart(15)}  ${String(this.webhooks).padStart(8)}`;
  }
}

export function percentile(samples: number[], q: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)];
}
