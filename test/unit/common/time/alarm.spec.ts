import { Alarm } from '../../../../src/common/time/alarm';

describe(Alarm.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fires once, at the earliest time asked of it', () => {
    const fired: number[] = [];
    const alarm = new Alarm(() => fired.push(Date.now()));
    const start = Date.now();
    alarm.within(300);
    alarm.within(100);
    alarm.within(200);
    jest.advanceTimersByTime(1000);
    expect(fired).toEqual([start + 100]);
  });

  it('can be set again once it has fired, and cancelled', () => {
    let fired = 0;
    const alarm = new Alarm(() => fired++);
    alarm.within(10);
    jest.advanceTimersByTime(10);
    alarm.within(50);
    jest.advanceTimersByTime(50);
    expect(fired).toBe(2);
    alarm.within(10);
    alarm.cancel();
    jest.advanceTimersByTime(100);
    expect(fired).toBe(2);
  });
});
