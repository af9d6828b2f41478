import type { KeysetCursor, KeysetPage } from '../common/http/keyset';

const ID = /^\d{1,15}$/;

/** `?before=ID` (an older page) or `?after=ID` (a newer one) from a page's query; anything else is the newest page. */
export function keysetCursorOf(query: Record<string, unknown>): KeysetCursor {
  const before = query.before;
  const after = query.after;
  if (typeof before === 'string' && ID.test(before)) return { direction: 'older', from: Number(before) };
  if (typeof after === 'string' && ID.test(after)) return { direction: 'newer', from: Number(after) };
  return { direction: 'older' };
}

/** Links to the newer and older pages of a keyset page, keeping the page's filters (null when there are neither). */
export function keysetPager(path: string, filters: Record<string, string>, page: Pick<KeysetPage<unknown>, 'newerAfter' | 'olderBefore'>) {
  if (page.newerAfter === undefined && page.olderBefore === undefined) return null;
  const link = (key: 'before' | 'after', id: number) => {
    const query = new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')), [key]: String(id) });
    return `${path}?${query.toString()}`;
  };
  return {
    previous: page.newerAfter !== undefined ? link('after', page.newerAfter) : undefined,
    next: page.olderBefore !== undefined ? link('before', page.olderBefore) : undefined,
  };
}
