import { stat } from 'node:fs';
import { nextBulkTurn } from '../../../../src/common/concurrency/bulk-turns';
import { turnCounter } from '../../../support/event-loop-turns';

async function slices(name: string, count: number, log: Array<{ name: string; turn: number }>, turns: { now: () => number }): Promise<void> {
  for (let i = 0; i < count; i++) {
    await nextBulkTurn();
    log.push({ name, turn: turns.now() });
  }
}

describe('nextBulkTurn', () => {
  it('runs one waiting slice per turn of the event loop, whoever asked, in the order they asked', async () => {
    const turns = turnCounter();
    const log: Array<{ name: string; turn: number }> = [];
    await Promise.all([slices('a', 4, log, turns), slices('b', 4, log, turns), slices('c', 4, log, turns)]);
    turns.stop();
    expect(log.map((entry) => entry.name).join('')).toBe('abcabcabcabc');
    expect(new Set(log.map((entry) => entry.turn)).size).toBe(12);
  });

  it('lets I/O callbacks run between two slices', async () => {
    // The stat completes on libuv's thread pool, which on a busy machine may take any number of slices:
    // slices run until its callback has, at most MAX_SLICES. Yielding without a turn of the loop (microtasks,
    // process.nextTick) would run every slice first, and the callback only after the last.
    const MAX_SLICES = 2000;
    const log: string[] = [];
    let ioDone = false;
    let io: Promise<void> = Promise.resolve();
    for (let i = 0; i < MAX_SLICES && !ioDone; i++) {
      await nextBulkTurn();
      log.push('slice');
      if (i === 0) {
        io = new Promise<void>((resolve, reject) =>
          stat(__filename, (err) => {
            if (err) return reject(err);
            log.push('io');
            ioDone = true;
            resolve();
          }),
        );
      }
      const until = Date.now() + 1;
      while (Date.now() < until); // a slice that takes a millisecond
    }
    await io;
    expect(log.indexOf('io')).toBeGreaterThan(0);
    expect(log.filter((entry) => entry === 'slice').length).toBeLessThan(MAX_SLICES);
    expect(log.slice(log.indexOf('io') + 1)).toEqual(['slice']);
  });
});
