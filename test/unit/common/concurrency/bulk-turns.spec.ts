import { nextBulkTurn } from '../../../../src/common/concurrency/bulk-turns';

/** Counts turns of the event loop: its callback runs once in each turn's check phase. */
function turnCounter(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => (running = false) };
}

async function slices(name: string, count: number, log: Array<{ name: string; turn: number }>, turns: { now: () => number }): Promise<void> {
  for (let i = 0; i < count; i++) {
    await nextBulkTurn();
    log.push({ name, turn: turns.now() });
  }
}

describe('nextBulkTurn', () => {
  it('runs one waiting slice per turn of the event loop, whoever asked', async () => {
    const turns = turnCounter();
    const log: Array<{ name: string; turn: number }> = [];
    await Promise.all([slices('a', 4, log, turns), slices('b', 4, log, turns), slices('c', 4, log, turns)]);
    turns.stop();
    expect(log).toHaveLength(12);
    const turnsUsed = log.map((entry) => entry.turn);
    expect(new Set(turnsUsed).size).toBe(12);
  });

  it('takes the slices in the order they asked, so concurrent bulk work advances together', async () => {
    const turns = turnCounter();
    const log: Array<{ name: string; turn: number }> = [];
    await Promise.all([slices('a', 3, log, turns), slices('b', 3, log, turns)]);
    turns.stop();
    expect(log.map((entry) => entry.name).join('')).toBe('ababab');
  });

  it('lets I/O callbacks run between two slices', async () => {
    const log: string[] = [];
    const io = new Promise<void>((resolve) =>
      setTimeout(() => {
        log.push('timer');
        resolve();
      }, 0),
    );
    const work = (async () => {
      for (let i = 0; i < 50; i++) {
        await nextBulkTurn();
        log.push('slice');
        const until = Date.now() + 1;
        while (Date.now() < until); // a slice that takes a millisecond
      }
    })();
    await Promise.all([io, work]);
    expect(log.indexOf('timer')).toBeGreaterThan(0);
    expect(log.indexOf('timer')).toBeLessThan(10);
  });
});
