import { CarrierHealthBoard } from '../../../../src/delivery/worker/carriers/carrier-health-board';
import { FakeCarrier } from './fixtures/fake-carrier';

const settings = { downErrorShare: 0.5, errorWindowMs: 10_000, minSubmits: 20, holdDownMs: 30_000, holdDownMaxMs: 240_000 };

describe('CarrierHealthBoard', () => {
  let now: number;
  let board: CarrierHealthBoard;
  let carrier: FakeCarrier;
  beforeEach(() => {
    now = 1_000_000;
    board = new CarrierHealthBoard(settings, () => now);
    carrier = new FakeCarrier(1);
    board.register(carrier);
  });

  const answer = (n: number, outcome: 'accepted' | 'temporary' | 'in-doubt' | 'permanent') => {
    for (let i = 0; i < n; i++) board.record(1, outcome);
  };

  it('takes a carrier still making its first binds as soon as one is up (no hold-down before the first bind)', () => {
    carrier.bindsUp = 0;
    expect(board.isUp(carrier)).toBe(false);
    now += 5_000;
    expect(board.isUp(carrier)).toBe(false);
    carrier.bindsUp = 1;
    expect(board.isUp(carrier)).toBe(true);
  });

  it('is down at once when every bind is down, and up again a hold-down after the binds return', () => {
    expect(board.isUp(carrier)).toBe(true);
    carrier.bindsUp = 0;
    expect(board.isUp(carrier)).toBe(false);
    now += 60_000; // binds down a minute: the hold-down has not started
    carrier.bindsUp = 2;
    now += 1;
    expect(board.isUp(carrier)).toBe(false);
    expect(board.view()[0]).toMatchObject({ state: 'down', reason: 'binds', bindsUp: 2 });
    now += 30_000;
    expect(board.isUp(carrier)).toBe(true);
  });

  it('is down when temporary failures pass the share of recent submits, and not on fewer than minSubmits', () => {
    answer(19, 'temporary');
    expect(board.isUp(carrier)).toBe(true); // 19 of 19, but fewer than 20 answers
    answer(19, 'accepted');
    answer(1, 'temporary'); // 20 of 39: over half
    expect(board.isUp(carrier)).toBe(false);
    expect(board.view()[0]).toMatchObject({ state: 'down', reason: 'errors', upInMs: 30_000 });
    now += 29_999;
    expect(board.isUp(carrier)).toBe(false);
    now += 1;
    expect(board.isUp(carrier)).toBe(true);
  });

  it('stays up at a 30% throttle share (the share is over the window, permanent refusals are answers)', () => {
    for (let i = 0; i < 1000; i++) board.record(1, i % 10 < 3 ? 'temporary' : i % 10 === 3 ? 'permanent' : 'accepted');
    expect(board.isUp(carrier)).toBe(true);
  });

  it('forgets failures older than the window', () => {
    answer(15, 'temporary');
    now += 11_000;
    answer(10, 'accepted');
    answer(10, 'temporary'); // 10 of 20 in the window: not over half
    expect(board.isUp(carrier)).toBe(true);
    expect(board.view()[0]).toMatchObject({ recentErrors: 10, recentSubmits: 20 });
  });

  it('does not flap: a carrier failing again soon after each return gets a doubling hold-down, capped', () => {
    // A carrier that fails 2 s after every return, for 20 minutes, checked every 100 ms.
    let transitions = 0;
    let wasUp = true;
    let upSince = now;
    const downs: number[] = [];
    for (const end = now + 20 * 60_000; now < end; now += 100) {
      if (wasUp && now - upSince >= 2_000 && now - upSince < 2_100) answer(30, 'temporary');
      const up = board.isUp(carrier);
      if (up !== wasUp) {
        transitions++;
        if (up) upSince = now;
        else downs.push(now);
      }
      wasUp = up;
    }
    const gaps = downs.slice(1).map((t, i) => t - downs[i]);
    // Hold-downs 30 s, then 60, 120, 240 (the cap), 240, ...: between two downs, the hold-down and the 2 s up.
    expect(gaps.slice(0, 5)).toEqual([32_000, 62_000, 122_000, 242_000, 242_000]);
    // With a fixed 30 s hold-down it would have gone down 37 times in these 20 minutes.
    expect(downs.length).toBe(8);
    expect(transitions).toBe(2 * 8 - 1); // the last hold-down outlasts the 20 minutes
  });

  it('gives the base hold-down again to a carrier that stayed up longer than its hold-down', () => {
    answer(30, 'temporary');
    now += 30_000;
    expect(board.isUp(carrier)).toBe(true);
    now += 1_000;
    answer(30, 'temporary'); // flapped: 60 s
    expect(board.view()[0].upInMs).toBe(60_000);
    now += 60_000;
    expect(board.isUp(carrier)).toBe(true);
    now += 61_000; // up longer than its 60 s hold-down
    answer(30, 'temporary');
    expect(board.view()[0].upInMs).toBe(30_000);
  });

  it('counts what groups hold waiting', () => {
    board.noteWaiting(3, 5);
    board.noteWaiting(2, 2);
    board.noteWaiting(-3, -5);
    expect(board.waiting()).toEqual({ messages: 2, parts: 2 });
  });
});
