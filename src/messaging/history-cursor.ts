/**
 * The history's keyset continuation (GET /v1/messages `cursor` / `next_cursor`): the position of a page's
 * last message in the history's order (created_at, then insertion order, newest first), as an opaque
 * token. The next page starts right after it, found through the account's (created_at, seq) index, so
 * page 10000 costs what page 1 does, where an offset walks every row before it.
 */
export interface HistoryPosition {
  /** created_at in microseconds since the epoch (the column's precision: a Date would lose it). */
  createdUs: string;
  seq: string;
}

const POSITION = /^(-?\d{1,17})\.(\d{1,18})$/;

export function encodeCursor(p: HistoryPosition): string {
  return Buffer.from(`${p.createdUs}.${p.seq}`, 'latin1').toString('base64url');
}

/** The position a cursor names, or null when the text is not one of ours. */
export function decodeCursor(text: string): HistoryPosition | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(text)) return null;
  const m = POSITION.exec(Buffer.from(text, 'base64url').toString('latin1'));
  return m ? { createdUs: m[1], seq: m[2] } : null;
}
