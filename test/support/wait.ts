/**
 * Every wait of the tests is multiplied by TEST_WAIT_SCALE (default 1): on a machine busy with other work,
 * `TEST_WAIT_SCALE=5 npm test` gives each wait five times as long. A wait only ever ends early when its
 * condition holds, so a larger scale makes a failure slower to report, never a pass easier.
 */
export const WAIT_SCALE = Math.max(1, Number(process.env.TEST_WAIT_SCALE ?? 1) || 1);

/**
 * Polls until the condition holds; fails the test with what it waited for after the timeout.
 * There is deliberately no sleep helper: to show something did not happen, wait for an event that must
 * come after it (a control message through the same path, an awaited sweep or dispatch run), or move
 * the time the code compares against, then assert the absence.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000, everyMs = 50): Promise<void> {
  timeoutMs *= WAIT_SCALE;
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
