import { performance } from 'node:perf_hooks';

/**
 * One timer that fires at the earliest time asked of it: asking again for a later time changes nothing,
 * so a loop that asks on every event (each finished webhook delivery, each pump of an SMPP carrier whose
 * binds are all busy) arms a timer once, not once per event.
 */
export class Alarm {
  private timer?: NodeJS.Timeout;
  private at = Number.POSITIVE_INFINITY;

  constructor(private readonly fire: () => void) {}

  /** Fires within `ms` from now (or sooner, if already set sooner). */
  within(ms: number): void {
    const at = performance.now() + ms;
    if (this.timer && this.at <= at) return;
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.at = Number.POSITIVE_INFINITY;
      this.fire();
    }, ms);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.at = Number.POSITIVE_INFINITY;
  }
}
