/**
 * Keyset paging (by id, newest first): a page costs the same at the millionth row as at the first, where
 * an offset walks every row before it. People's pages use it (contacts, list members, conversations).
 */
export interface KeysetCursor {
  /** Older rows (ids below `from`) or newer ones (ids above it). */
  direction: 'older' | 'newer';
  /** The id the page starts beyond; undefined for the newest page. */
  from?: number;
}

export interface KeysetPage<T> {
  /** Newest first. */
  rows: T[];
  /** `after` for the newer page, when there is one. */
  newerAfter?: number;
  /** `before` for the older page, when there is one. */
  olderBefore?: number;
}

/**
 * A page from rows read in the cursor's direction, one more than `limit` when there are (the extra says
 * the direction goes on). `stoppedAt` is where reading stopped short of the end without finding the
 * extra row (a search that reads a bounded number of rows): the direction goes on from there.
 */
export function keysetPage<T>(readInDirection: T[], cursor: KeysetCursor, limit: number, idOf: (row: T) => number, stoppedAt?: number): KeysetPage<T> {
  const taken = readInDirection.slice(0, limit);
  const farEdge = readInDirection.length > limit ? idOf(taken[taken.length - 1]) : stoppedAt;
  if (cursor.direction === 'older') {
    return { rows: taken, olderBefore: farEdge, newerAfter: cursor.from === undefined ? undefined : cursor.from - 1 };
  }
  return { rows: taken.reverse(), newerAfter: farEdge, olderBefore: cursor.from === undefined ? undefined : cursor.from + 1 };
}
