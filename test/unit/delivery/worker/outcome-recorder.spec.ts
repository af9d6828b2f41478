import { OutcomeRecorder } from '../../../../src/delivery/worker/outcome-recorder';
import type { PartOutcome } from '../../../../src/delivery/state/part-changes';

const outcome = (messageId: string): PartOutcome => ({
  batchId: 'b',
  accountId: 1,
  messageId,
  partNumber: 1,
  totalParts: 1,
  smscId: `s-${messageId}`,
  error: null,
  receiptDueAt: null,
});

describe(OutcomeRecorder.name, () => {
  it('commits the outcomes of groups answered together in one write', async () => {
    const writes: string[][] = [];
    const recorder = new OutcomeRecorder(async (outcomes) => void writes.push(outcomes.map((o) => o.messageId)), 4);
    await Promise.all([recorder.record([outcome('m1'), outcome('m2')]), recorder.record([outcome('m3')])]);
    expect(writes).toEqual([['m1', 'm2', 'm3']]);
  });

  it('holds at most its number of groups out: the next waits until one is released', async () => {
    const recorder = new OutcomeRecorder(async () => undefined, 2);
    await recorder.acquire();
    await recorder.acquire();
    let third = false;
    const waiting = recorder.acquire().then(() => (third = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    recorder.release();
    await waiting;
    expect(third).toBe(true);
  });

  it('is broken once a write fails, before the failure reaches the caller, until the database is reached again', async () => {
    let fail = true;
    const recorder = new OutcomeRecorder(async () => {
      if (fail) throw new Error('connection terminated');
    }, 2);
    let brokenWhenRejected: boolean | undefined;
    await recorder.record([outcome('m1')]).catch(() => (brokenWhenRejected = recorder.broken));
    expect(brokenWhenRejected).toBe(true);
    fail = false;
    await recorder.record([outcome('m2')]);
    expect(recorder.broken).toBe(true);
    recorder.databaseReached();
    expect(recorder.broken).toBe(false);
  });
});
