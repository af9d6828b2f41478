import { BindPicker, PickableBind } from '../../../../src/delivery/worker/carriers/smpp/bind-picker';

/** A bind that is ready after `readyAt` (ms on the test's clock) with `inFlightCount` unanswered submits. */
function bind(name: string, inFlightCount: number, readyAt = 0): PickableBind & { name: string } {
  return { name, inFlightCount, waitMs: (now) => Math.max(0, readyAt - now) };
}

/** The names of the binds `count` picks in a row choose at `now`. */
function picks(picker: BindPicker<ReturnType<typeof bind>>, count: number, now = 0): string[] {
  return Array.from({ length: count }, () => (picker.pick(now) as ReturnType<typeof bind>).name);
}

describe('BindPicker', () => {
  it('picks the ready bind with the fewest unanswered submits', () => {
    const binds = [bind('a', 5), bind('b', 2), bind('c', 9), bind('d', 1, 50)];
    expect(picks(new BindPicker(binds), 1)).toEqual(['b']);
  });

  it('takes turns among equally loaded binds, starting after the one chosen last', () => {
    const picker = new BindPicker([bind('a', 0), bind('b', 0), bind('c', 0)]);
    expect(picks(picker, 6)).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('skips a bind that is not ready and turns again from the one it chose', () => {
    const binds = [bind('a', 0), bind('b', 0, 100), bind('c', 0)];
    const picker = new BindPicker(binds);
    expect(picks(picker, 3)).toEqual(['a', 'c', 'a']);
    expect(picks(picker, 1, 100)).toEqual(['b']);
  });

  it('answers the ms until the first busy bind may send when none is ready', () => {
    expect(new BindPicker([bind('a', 0, 30), bind('b', 0, 12), bind('c', 0, 70)]).pick(0)).toBe(12);
    expect(new BindPicker([bind('a', 0, 30)]).pick(25)).toBe(5);
  });

  it('answers Infinity when no bind will be ready by itself, and for no binds at all', () => {
    const down = { inFlightCount: 0, waitMs: () => Infinity };
    expect(new BindPicker([down, down]).pick(0)).toBe(Infinity);
    expect(new BindPicker([]).pick(0)).toBe(Infinity);
  });
});
