export interface ClaimRoomLimits {
  /** The most events one claim takes. */
  batch: number;
  /** The fewest a claim takes while deliveries are in flight: claims stay batches, not a statement per few deliveries. */
  minClaim: number;
  /** Deliveries in flight in this process at once (all hosts). */
  maxInFlight: number;
  /** What one host holds at once: its connections plus its queue. */
  hostCapacity: number;
}

/**
 * How many events the deliverer's next claim takes. Claims follow what the hosts take: the room is an
 * estimate of the free places in the fullest host's queue, counted down by every claim and up by every
 * finished delivery. An event whose host's queue is full is put back in PostgreSQL (one more write, one
 * more claim, and a short wait before it is due again), so a claim that overfills a queue costs three
 * times what it saves; a full queue seen when events are put back sets the estimate to nothing.
 */
export class ClaimRoom {
  private hostRoom: number;

  constructor(private readonly limits: ClaimRoomLimits) {
    this.hostRoom = limits.hostCapacity;
  }

  /** The size of the next claim with `inFlight` deliveries in flight, or 0 to wait for more to finish. */
  next(inFlight: number): number {
    if (inFlight === 0) return this.limits.batch;
    const room = Math.min(this.limits.batch, this.limits.maxInFlight - inFlight, this.hostRoom);
    return room < this.limits.minClaim ? 0 : room;
  }

  /** A claim queued `count` events, `putBack` of which found their host's queue full. */
  claimed(count: number, putBack: number): void {
    this.hostRoom = putBack > 0 ? 0 : Math.max(0, this.hostRoom - count);
  }

  /** A delivery finished, leaving `inFlight` in flight: with none, every queue is empty. */
  finished(inFlight: number): void {
    this.hostRoom = inFlight === 0 ? this.limits.hostCapacity : Math.min(this.limits.hostCapacity, this.hostRoom + 1);
  }
}
