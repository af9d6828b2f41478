/** Furthest ahead a send may be scheduled (supplement: at most 365 days, exactly 365 allowed). */
export const MAX_SCHEDULE_AHEAD_MS = 365 * 24 * 60 * 60 * 1000;

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export type ScheduleParse = { ok: true; at: Date | null } | { ok: false };

/**
 * Reads a `scheduled_for` value (supplement, Scheduling): `YYYY-MM-DDTHH:MM[:SS[.fff]]` or with a
 * space, UTC unless a `Z` or `±HH:MM` suffix says otherwise. null/''/absent mean not scheduled; a
 * time not in the future means send now (`at` null); more than 365 days ahead, a date alone, an
 * impossible date or a non-string are invalid.
 */
export function parseScheduledFor(value: unknown, now: Date): ScheduleParse {
  if (value === undefined || value === null || value === '') return { ok: true, at: null };
  if (typeof value !== 'string') return { ok: false };
  const m = DATETIME.exec(value.trim());
  if (!m) return { ok: false };
  const [, y, mo, d, h, mi, s = '0', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return { ok: false };
  const utcMs = Date.UTC(year, month - 1, day, hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  const check = new Date(utcMs);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return { ok: false };
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4));
    if (oh > 14 || om > 59) return { ok: false };
    offsetMinutes = sign * (oh * 60 + om);
  }
  const at = new Date(utcMs - offsetMinutes * 60_000);
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS) return { ok: false };
  return { ok: true, at: at.getTime() > now.getTime() ? at : null };
}

/**
 * Planned dispatch times for a staggered send (supplement, Clarifications): message i of n is planned
 * at start + i × minutes / n, spreading the send evenly over the window.
 */
export function staggerOffsetsMs(count: number, minutes: number): Float64Array {
  const offsets = new Float64Array(count);
  const windowMs = minutes * 60_000;
  for (let i = 0; i < count; i++) offsets[i] = Math.floor((i * windowMs) / count);
  return offsets;
}
