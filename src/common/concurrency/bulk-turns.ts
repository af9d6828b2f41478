/**
 * The turns of the event loop that bulk work yields between its slices (mapInSlices, copyRows,
 * serializeInSlices, a statement's large array parameters). Every slice waiting in the process queues
 * here and one slice runs per loop turn, in the order they asked. Were each to yield through its own
 * setImmediate, five 10000-message requests would run a slice each in every turn, and a small request
 * beside them (a balance lookup, a health probe) would wait five slices at each of its steps, not one.
 * The bulk work uses the same CPU, but with n jobs beside each other each waits n turns between its
 * slices (with the I/O callbacks of those turns) instead of one, so each takes longer on its own; a
 * job inside a transaction holds its connection and locks for that time too.
 */
const waiting: Array<() => void> = [];
let releasing = false;

/** Resolves in a later turn of the event loop, once the slices that asked before have had theirs. */
export function nextBulkTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!releasing) {
      releasing = true;
      setImmediate(releaseOne);
    }
  });
}

function releaseOne(): void {
  const next = waiting.shift();
  // Scheduled from the check phase, the next release runs in the next turn, after its I/O.
  if (waiting.length > 0) setImmediate(releaseOne);
  else releasing = false;
  next?.();
}
