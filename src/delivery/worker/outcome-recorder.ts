import { GroupCommit } from '../../common/batching/group-commit';
import { Slots } from '../../common/batching/slots';
import type { PartOutcome } from '../state/part-changes';

/** Outcomes (of every lane of the process) are committed when this many have been answered, or this long after the first. */
const RECORD_EVERY = 200;
const RECORD_AFTER_MS = 10;

/**
 * The process's one recorder of submission outcomes (one group commit for every lane: the fewer the
 * transactions, the less each outcome costs), and the bound on what the carriers hold unrecorded: at
 * most `slots` groups handed over and not yet recorded, across all lanes. Once a recording fails
 * (PostgreSQL gone) no lane may hand anything over until a claim succeeds again, so an outage can only
 * repeat what was already out, never a batch.
 */
export class OutcomeRecorder {
  private readonly group: GroupCommit<PartOutcome>;
  private readonly slots: Slots;
  private failed = false;

  constructor(write: (outcomes: PartOutcome[]) => Promise<void>, slots: number) {
    this.group = new GroupCommit(write, { maxItems: RECORD_EVERY, maxWaitMs: RECORD_AFTER_MS });
    this.slots = new Slots(slots);
  }

  /** Waits for room to hand one more group to a carrier; release() once it is recorded (or given up). */
  acquire(): Promise<void> {
    return this.slots.acquire();
  }

  release(): void {
    this.slots.release();
  }

  /** A recording failed and the database has not been seen since: hand nothing over. */
  get broken(): boolean {
    return this.failed;
  }

  /** A claim went through, so the database is back. */
  databaseReached(): void {
    this.failed = false;
  }

  /** Resolves once these outcomes are committed; a failure marks the recorder broken before it rejects. */
  async record(outcomes: PartOutcome[]): Promise<void> {
    try {
      await this.group.add(outcomes);
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }
}
