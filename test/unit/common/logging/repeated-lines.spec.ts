import { RepeatedLines } from '../../../../src/common/logging/repeated-lines';

describe(RepeatedLines.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('writes a cause at once, then once a second with how many times it recurred, and at once again after a quiet second', () => {
    const lines: Array<[string, Record<string, unknown>]> = [];
    const log = new RepeatedLines((msg, meta) => lines.push([msg, meta]));
    for (let i = 0; i < 1400; i++) log.note('handler failed', { err: `e${i}` });
    log.note('other cause');
    expect(lines).toEqual([
      ['handler failed', { err: 'e0', count: 1 }],
      ['other cause', { count: 1 }],
    ]);
    jest.advanceTimersByTime(1000);
    expect(lines[2]).toEqual(['handler failed', { err: 'e1399', count: 1399, withinMs: 1000 }]);
    expect(lines).toHaveLength(3);
    log.note('handler failed', { err: 'again' });
    jest.advanceTimersByTime(1000);
    expect(lines[3]).toEqual(['handler failed', { err: 'again', count: 1, withinMs: 1000 }]);
    jest.advanceTimersByTime(1000);
    expect(lines).toHaveLength(4);
    log.note('handler failed', { err: 'back' });
    expect(lines[4]).toEqual(['handler failed', { err: 'back', count: 1 }]);
  });

  it('counts causes with the same text apart by their key', () => {
    const lines: Array<[string, Record<string, unknown>]> = [];
    const log = new RepeatedLines((msg, meta) => lines.push([msg, meta]));
    log.note('periodic work failed', { work: 'a' }, 'a');
    log.note('periodic work failed', { work: 'b' }, 'b');
    log.note('periodic work failed', { work: 'a' }, 'a');
    jest.advanceTimersByTime(1000);
    expect(lines).toEqual([
      ['periodic work failed', { work: 'a', count: 1 }],
      ['periodic work failed', { work: 'b', count: 1 }],
      ['periodic work failed', { work: 'a', count: 1, withinMs: 1000 }],
    ]);
  });
});
