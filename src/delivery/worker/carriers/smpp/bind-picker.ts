/** What BindPicker needs of a bind (SmppBind): its unanswered submits and when it may send. */
export interface PickableBind {
  readonly inFlightCount: number;
  /** 0 when the bind may send now; otherwise ms until it may (Infinity: not until something changes). */
  waitMs(now: number): number;
}

/**
 * Chooses the bind for the next part: the ready bind with the fewest unanswered submits, taking turns
 * on ties (each search starts after the bind chosen last), so equal binds share the load evenly.
 */
export class BindPicker<B extends PickableBind> {
  private start = 0;

  constructor(private readonly binds: readonly B[]) {}

  /** The bind to send on, or the ms until one may be ready (Infinity when none will be by itself). */
  pick(now: number): B | number {
    const n = this.binds.length;
    let best = -1;
    let wait = Infinity;
    for (let k = 0; k < n; k++) {
      const at = (this.start + k) % n;
      const ms = this.binds[at].waitMs(now);
      if (ms === 0) {
        if (best < 0 || this.binds[at].inFlightCount < this.binds[best].inFlightCount) best = at;
      } else if (ms < wait) {
        wait = ms;
      }
    }
    if (best < 0) return wait;
    this.start = (best + 1) % n;
    return this.binds[best];
  }
}
