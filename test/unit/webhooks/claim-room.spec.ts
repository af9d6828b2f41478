import { ClaimRoom } from '../../../src/webhooks/claim-room';

describe(ClaimRoom.name, () => {
  // 32 connections with a queue of 1024 behind them, as the defaults give.
  const limits = { batch: 500, minClaim: 256, maxInFlight: 2000, hostCapacity: 1056 };

  it('takes a whole batch with nothing in flight, whatever came before', () => {
    const room = new ClaimRoom(limits);
    room.claimed(500, 500);
    expect(room.next(0)).toBe(500);
  });

  it('never claims past what the fullest host still holds, so a single fast receiver gets nothing put back', () => {
    const room = new ClaimRoom(limits);
    let inFlight = 0;
    let queued = 0;
    for (let turn = 0; turn < 200; turn++) {
      const size = room.next(inFlight);
      if (size > 0) {
        expect(inFlight + size).toBeLessThanOrEqual(limits.hostCapacity);
        inFlight += size;
        queued += size;
        room.claimed(size, 0);
      }
      for (let i = 0; i < 37 && inFlight > 0; i++) room.finished(--inFlight);
    }
    expect(queued).toBeGreaterThan(5000);
  });

  it('waits after a put-back until a quarter of the queue has freed, then claims what has freed', () => {
    const room = new ClaimRoom(limits);
    room.claimed(500, 120);
    expect(room.next(900)).toBe(0);
    for (let i = 0; i < 255; i++) room.finished(900 - i - 1);
    expect(room.next(645)).toBe(0);
    room.finished(644);
    expect(room.next(644)).toBe(256);
  });

  it('keeps within the process-wide limit on deliveries in flight', () => {
    const room = new ClaimRoom({ ...limits, hostCapacity: 5000 });
    expect(room.next(1600)).toBe(400);
    expect(room.next(1800)).toBe(0);
  });

  it('counts every queue empty once nothing is in flight', () => {
    const room = new ClaimRoom(limits);
    room.claimed(500, 500);
    room.finished(0);
    expect(room.next(1)).toBe(500);
  });
});
