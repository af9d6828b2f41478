/** A write the test finishes by hand, recording what each call carried (for group-commit tests). */
export function manualWrites() {
  const calls: Array<{ items: number[]; finish: (err?: Error) => void }> = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ items, finish: (err) => (err ? reject(err) : resolve()) });
    });
  return { calls, write };
}

/** One turn of the event loop: promise chains settled so far have run. */
export const tick = () => new Promise((r) => setImmediate(r));
