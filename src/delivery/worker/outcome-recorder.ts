import { GroupCommit } from '../../common/batching/group-commit';
import { Slots } from '../../common/batching/slots';
import { classifyDependencyFailure } from '../../common/errors/dependency-errors';
import type { PartOutcome } from '../state/part-changes';

/** Outcomes (of every lane of the process) are committed when this many have been answered, or this long after the first. */
const RECORD_EVERY = 200;
const RECORD_AFTER_MS = 10;
/** A recording PostgreSQL could not take is tried again after this pause, doubling up to the next. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 1000;
/** How often a lane waiting out an outage looks again. */
const OUTAGE_POLL_MS = 50;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The process's one recorder of submission outcomes (one group commit for every lane: the fewer the
 * transactions, the less each outcome costs), and the bound on what the carriers hold unrecorded: at
 * most `slots` groups handed over and not yet recorded, across all lanes. Once a recording fails
 * (PostgreSQL gone) no lane may hand anything over until a claim succeeds again, so an outage can only
 * repeat what was already out, never a batch. Outcomes the carrier answered during an outage are kept
 * (recordKept) and recorded once PostgreSQL is back, so a worker that lives through it resubmits nothing.
 */
export class OutcomeRecorder {
  private readonly group: GroupCommit<PartOutcome>;
  private readonly slots: Slots;
  private failed = false;
  /** Recordings being tried again until PostgreSQL takes them. */
  private keeping = 0;

  constructor(
    write: (outcomes: PartOutcome[]) => Promise<void>,
    slots: number,
    private readonly onKept: (err: unknown) => void = () => undefined,
  ) {
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

  /** Groups that may be out unrecorded at once (the carriers changed: see DispatcherService). */
  resize(slots: number): void {
    this.slots.resize(slots);
  }

  get capacity(): number {
    return this.slots.capacity;
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

  /**
   * Records these outcomes, keeping them through an outage: a recording that failed because PostgreSQL is
   * out of reach is tried again (after 100 ms, doubling to 1 s) for as long as `stillOurs` says their batch
   * cannot have been taken back, and the database is known reached once it goes through. Any other failure,
   * or a batch that may have been taken back (the sweeper then sends it again), rejects.
   */
  async recordKept(outcomes: PartOutcome[], stillOurs: () => boolean): Promise<void> {
    const keepable = (err: unknown) => classifyDependencyFailure(err) === 'postgres' && stillOurs();
    try {
      return await this.record(outcomes);
    } catch (err) {
      if (!keepable(err)) throw err;
      this.onKept(err);
    }
    this.keeping++;
    try {
      for (let wait = RETRY_FIRST_MS; ; wait = Math.min(2 * wait, RETRY_MAX_MS)) {
        await pause(wait);
        try {
          await this.record(outcomes);
          this.databaseReached();
          return;
        } catch (err) {
          if (!keepable(err)) throw err;
          this.onKept(err);
        }
      }
    } finally {
      this.keeping--;
    }
  }

  /**
   * Waits while a recording is being kept through an outage (and `stillOurs` holds), so a batch pauses
   * rather than stops on a short outage; resolves at once otherwise.
   */
  async outageOver(stillOurs: () => boolean): Promise<void> {
    while (this.failed && this.keeping > 0 && stillOurs()) await pause(OUTAGE_POLL_MS);
  }
}
