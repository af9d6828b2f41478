/**
 * The turns of the event loop that bulk work yields between its slices (mapInSlices, copyRows,
 * serializeInSlices, a statement's large array parameters). Every slice waiting in the process queues
 * here and one slice runs per loop turn, in the order they asked. With each yielding through its own
 * setImmediate, five 10000-message requests ran a slice each in every turn, so a small request beside
 * them (a balance lookup, a health probe) waited five slices at each of its steps; now it waits one.
 * The bulk work itself runs no slower: on one thread its slices ran one after another anyway.
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
