import { Slots } from '../../../../src/common/batching/slots';

describe(Slots.name, () => {
  it('admits `size` holders and hands each released slot to the next waiter in order', async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    await slots.acquire();
    await slots.acquire();
    const third = slots.acquire().then(() => order.push('third'));
    const fourth = slots.acquire().then(() => order.push('fourth'));
    await Promise.resolve();
    expect(order).toEqual([]);
    slots.release();
    await third;
    expect(order).toEqual(['third']);
    slots.release();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('frees the slot when nobody waits', async () => {
    const slots = new Slots(1);
    await slots.acquire();
    slots.release();
    let got = false;
    await slots.acquire().then(() => (got = true));
    expect(got).toBe(true);
  });

  it('admits waiters at once when it grows, and admits none after it shrinks until the holders are under the new size', async () => {
    const slots = new Slots(1);
    await slots.acquire();
    let second = false;
    const waiting = slots.acquire().then(() => (second = true));
    slots.resize(2);
    await waiting;
    expect(second).toBe(true);
    slots.resize(1);
    let third = false;
    const last = slots.acquire().then(() => (third = true));
    slots.release(); // 2 held on a size of 1: the slot is given up, not handed on
    await Promise.resolve();
    expect(third).toBe(false);
    slots.release();
    await last;
    expect(third).toBe(true);
    expect(slots.capacity).toBe(1);
  });

  it('runs work holding a slot: at once when one is free, else in turn, and frees it whether the work succeeds or fails', async () => {
    const slots = new Slots(1);
    const order: string[] = [];
    let finishFirst!: () => void;
    const first = slots.run(() => {
      order.push('first started');
      return new Promise<void>((resolve) => (finishFirst = resolve));
    });
    // Started in the same turn as the call.
    expect(order).toEqual(['first started']);
    const failing = slots.run(async () => {
      order.push('failing started');
      throw new Error('refused');
    });
    const last = slots.run(async () => void order.push('last started'));
    await Promise.resolve();
    expect(order).toEqual(['first started']);
    finishFirst();
    await first;
    await expect(failing).rejects.toThrow('refused');
    await last;
    expect(order).toEqual(['first started', 'failing started', 'last started']);
    expect(slots.tryAcquire()).toBe(true);
    expect(slots.tryAcquire()).toBe(false);
  });

  it('frees the slot when the work throws before returning its promise', async () => {
    const slots = new Slots(1);
    await expect(
      slots.run(() => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(slots.tryAcquire()).toBe(true);
  });
});
