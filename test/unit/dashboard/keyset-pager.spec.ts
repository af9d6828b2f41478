import { keysetPage } from '../../../src/common/http/keyset';
import { keysetCursorOf, keysetPager } from '../../../src/dashboard/keyset-pager';

describe(keysetCursorOf.name, () => {
  it.each([
    [{}, { direction: 'older' }],
    [{ before: '42' }, { direction: 'older', from: 42 }],
    [{ after: '7' }, { direction: 'newer', from: 7 }],
    [{ before: '-1' }, { direction: 'older' }],
    [{ before: ['1', '2'] }, { direction: 'older' }],
    [{ after: '1e3' }, { direction: 'older' }],
  ])('%j → %j', (query, cursor) => {
    expect(keysetCursorOf(query)).toEqual(cursor);
  });
});

describe(keysetPager.name, () => {
  it('links newer and older pages, keeping filters that are set', () => {
    expect(keysetPager('/contacts', { q: 'ann', other: '' }, { newerAfter: 90, olderBefore: 70 })).toEqual({
      previous: '/contacts?q=ann&after=90',
      next: '/contacts?q=ann&before=70',
    });
    expect(keysetPager('/contacts', {}, { olderBefore: 3 })).toEqual({ previous: undefined, next: '/contacts?before=3' });
    expect(keysetPager('/contacts', {}, {})).toBeNull();
  });
});

describe(keysetPage.name, () => {
  const id = (n: number) => n;
  it('takes the newest page, saying where the older one starts when a row beyond it was read', () => {
    expect(keysetPage([9, 8, 7], { direction: 'older' }, 2, id)).toEqual({ rows: [9, 8], olderBefore: 8, newerAfter: undefined });
    expect(keysetPage([9, 8], { direction: 'older' }, 2, id)).toEqual({ rows: [9, 8], olderBefore: undefined, newerAfter: undefined });
  });

  it('comes back to the page it left: after X shows X+1 upwards, newest first', () => {
    expect(keysetPage([6, 5, 4], { direction: 'older', from: 7 }, 3, id)).toEqual({ rows: [6, 5, 4], olderBefore: undefined, newerAfter: 6 });
    expect(keysetPage([7, 8, 9], { direction: 'newer', from: 6 }, 2, id)).toEqual({ rows: [8, 7], newerAfter: 8, olderBefore: 7 });
    expect(keysetPage([7, 8], { direction: 'newer', from: 6 }, 2, id)).toEqual({ rows: [8, 7], newerAfter: undefined, olderBefore: 7 });
  });

  it('goes on from where a bounded read stopped, even with nothing found', () => {
    expect(keysetPage([], { direction: 'older', from: 100 }, 2, id, 40)).toEqual({ rows: [], olderBefore: 40, newerAfter: 99 });
    expect(keysetPage([30], { direction: 'older' }, 2, id, 20)).toEqual({ rows: [30], olderBefore: 20, newerAfter: undefined });
  });
});
