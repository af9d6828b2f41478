/**
 * Work a process repeats on a timer (sweeps, reconciliation, purges). Each role's composition root
 * declares the list it runs (src/periodic-work.module.ts for the worker role); an API-only process and
 * the operator CLI run none.
 */
export interface PeriodicWork {
  /** Names the work in logs and metrics (`dispatch-sweep`). */
  name: string;
  /** Pause between the end of one run and the start of the next; 0 switches the work off (tests run it by hand). */
  everyMs: number;
  run(): Promise<unknown>;
}

/** Injection token of the list a role runs. */
export const PERIODIC_WORK = Symbol('PERIODIC_WORK');
