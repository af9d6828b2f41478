import { QueryRunnerAlreadyReleasedError } from 'typeorm';
import { OutcomeRecorder } from '../../../../src/delivery/worker/outcome-recorder';
import type { PartOutcome } from '../../../../src/delivery/state/part-changes';

const outcome = (messageId: string): PartOutcome => ({
  batchId: 'b',
  accountId: 1,
  messageId,
  partNumber: 1,
  totalParts: 1,
  carrierId: 0,
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

  describe('recordKept: answers kept through an outage', () => {
    const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

    it('tries a recording PostgreSQL could not take again until it goes through, then is no longer broken; a lane waits meanwhile', async () => {
      let failures = 3;
      const written: string[] = [];
      const kept: string[] = [];
      const recorder = new OutcomeRecorder(
        async (outcomes) => {
          if (failures-- > 0) throw unreachable();
          written.push(...outcomes.map((o) => o.messageId));
        },
        2,
        (err) => kept.push((err as Error).message),
      );
      const recording = recorder.recordKept([outcome('m1')], () => true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect([recorder.broken, written]).toEqual([true, []]);
      let laneWent = false;
      const lane = recorder.outageOver(() => true).then(() => (laneWent = true));
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(laneWent).toBe(false);
      await recording;
      await lane;
      expect([recorder.broken, written, kept.length, laneWent]).toEqual([false, ['m1'], 3, true]);
    });

    it('keeps the answers when the connection broke mid-transaction and TypeORM released it (failover: seen as 40 sent twice)', async () => {
      let failures = 1;
      const written: string[] = [];
      const recorder = new OutcomeRecorder(async (outcomes) => {
        if (failures-- > 0) throw new QueryRunnerAlreadyReleasedError();
        written.push(...outcomes.map((o) => o.messageId));
      }, 2);
      await recorder.recordKept([outcome('m1')], () => true);
      expect([recorder.broken, written]).toEqual([false, ['m1']]);
    });

    it('gives up once the batch may have been taken back, and on any failure that is not an outage', async () => {
      let ours = true;
      const recorder = new OutcomeRecorder(async () => {
        throw unreachable();
      }, 2);
      const givenUp = recorder.recordKept([outcome('m1')], () => ours).catch((err: Error) => err.message);
      await new Promise((resolve) => setTimeout(resolve, 150));
      ours = false;
      expect(await givenUp).toBe('connect ECONNREFUSED 127.0.0.1:5432');
      expect(recorder.broken).toBe(true);
      await expect(recorder.outageOver(() => true)).resolves.toBeUndefined();

      const bug = new OutcomeRecorder(async () => {
        throw Object.assign(new Error('null value in column "account_id" violates not-null constraint'), { code: '23502' });
      }, 2);
      await expect(bug.recordKept([outcome('m2')], () => true)).rejects.toThrow('violates not-null constraint');
    });
  });
});
