import {
  addBuckets,
  boundLiteral,
  bucketStart,
  dayOfPrefixedId,
  dayPrefixedIdAt,
  forValues,
  parsePartitionName,
  partitionName,
  planMaintenance,
  uuidAt,
} from '../../../../src/database/partitioning/partition-bounds';
import { uuid7 } from '../../../../src/common/ids/uuid7';

const at = (iso: string) => new Date(iso);

describe('partition bounds', () => {
  it('starts a month bucket on the 1st, 00:00 UTC, and a day bucket at midnight UTC', () => {
    expect(bucketStart(at('2026-11-27T13:45:00Z'), 'month')).toEqual(at('2026-11-01T00:00:00Z'));
    expect(bucketStart(at('2026-11-27T13:45:00Z'), 'day')).toEqual(at('2026-11-27T00:00:00Z'));
    expect(bucketStart(at('2026-12-31T23:59:59.999Z'), 'month')).toEqual(at('2026-12-01T00:00:00Z'));
  });

  it('steps buckets across year ends and month lengths', () => {
    expect(addBuckets(at('2026-11-01T00:00:00Z'), 'month', 3)).toEqual(at('2027-02-01T00:00:00Z'));
    expect(addBuckets(at('2026-01-01T00:00:00Z'), 'month', -13)).toEqual(at('2024-12-01T00:00:00Z'));
    expect(addBuckets(at('2026-02-28T00:00:00Z'), 'day', 1)).toEqual(at('2026-03-01T00:00:00Z'));
    expect(addBuckets(at('2026-01-01T00:00:00Z'), 'day', -1)).toEqual(at('2025-12-31T00:00:00Z'));
  });

  it('names partitions by their bucket and reads the name back', () => {
    expect(partitionName('messages', 'month', at('2026-11-01T00:00:00Z'))).toBe('messages_p2026_11');
    expect(partitionName('webhook_events', 'day', at('2026-01-05T00:00:00Z'))).toBe('webhook_events_p2026_01_05');
    expect(parsePartitionName('messages', 'month', 'messages_p2026_11')).toEqual(at('2026-11-01T00:00:00Z'));
    expect(parsePartitionName('webhook_events', 'day', 'webhook_events_p2026_01_05')).toEqual(at('2026-01-05T00:00:00Z'));
  });

  it('reads no bucket from catch-alls, other tables or impossible dates', () => {
    expect(parsePartitionName('messages', 'month', 'messages_p_old')).toBeNull();
    expect(parsePartitionName('messages', 'month', 'messages_p_legacy')).toBeNull();
    expect(parsePartitionName('message', 'month', 'message_parts_p2026_11')).toBeNull();
    expect(parsePartitionName('messages', 'month', 'messages_p2026_13')).toBeNull();
    expect(parsePartitionName('messages', 'day', 'messages_p2026_02_30')).toBeNull();
    expect(parsePartitionName('messages', 'day', 'messages_p2026_11')).toBeNull();
  });

  it('bounds a v7 uuid bucket by the uuid of its start: every id made in the bucket sorts inside it', () => {
    const start = at('2026-11-01T00:00:00Z');
    const end = addBuckets(start, 'month', 1);
    // 1793491200000 ms = 0x01a19467e800 (PostgreSQL: to_hex(extract(epoch from '2026-11-01Z') * 1000)).
    expect(uuidAt(start.getTime())).toBe('01a19467-e800-0000-0000-000000000000');
    expect(uuidAt(0)).toBe('00000000-0000-0000-0000-000000000000');
    const ids = [uuid7(start.getTime()), uuid7(start.getTime() + 12345), uuid7(end.getTime() - 1)];
    for (const id of ids) {
      expect(id >= uuidAt(start.getTime())).toBe(true);
      expect(id < uuidAt(end.getTime())).toBe(true);
    }
    expect(uuid7(start.getTime() - 1) < uuidAt(start.getTime())).toBe(true);
    expect(uuid7(end.getTime()) >= uuidAt(end.getTime())).toBe(true);
    expect(() => uuidAt(-1)).toThrow(RangeError);
  });

  it('writes the bounds as literals of the key type', () => {
    const start = at('2026-11-01T00:00:00Z');
    expect(boundLiteral({ column: 'created_at', kind: 'timestamptz' }, start)).toBe("'2026-11-01T00:00:00.000Z'");
    expect(forValues({ column: 'id', kind: 'uuid7' }, start, addBuckets(start, 'month', 1))).toBe(
      `FOR VALUES FROM ('01a19467-e800-0000-0000-000000000000') TO ('${uuidAt(Date.UTC(2026, 11, 1))}')`,
    );
  });

  it('bounds a day-prefixed id bucket by its day number shifted 32 bits: every id of the day sorts inside it', () => {
    const key = { column: 'id', kind: 'dayPrefixedId' as const };
    const start = at('2026-11-27T00:00:00Z');
    // 2026-11-27 is day 20784 since 1970 (PostgreSQL: floor(extract(epoch from '2026-11-27Z') / 86400)).
    expect(dayPrefixedIdAt(start.getTime())).toBe(20784n << 32n);
    expect(forValues(key, start, addBuckets(start, 'day', 1))).toBe(`FOR VALUES FROM (${20784n << 32n}) TO (${20785n << 32n})`);
    // What day_prefixed_id() makes during that day: the first and the last low 32 bits.
    const first = (20784n << 32n) | 0n;
    const last = (20784n << 32n) | 0xffffffffn;
    expect(first >= dayPrefixedIdAt(start.getTime()) && last < dayPrefixedIdAt(addBuckets(start, 'day', 1).getTime())).toBe(true);
    expect(dayOfPrefixedId(String(last))).toEqual(start);
    expect(dayOfPrefixedId(12345)).toEqual(at('1970-01-01T00:00:00Z'));
    // Exact as a JSON number: far below 2^53 for millennia.
    expect(Number(dayPrefixedIdAt(at('2999-12-31T00:00:00Z').getTime())) < Number.MAX_SAFE_INTEGER).toBe(true);
    expect(() => dayPrefixedIdAt(-1)).toThrow(RangeError);
  });

  describe(planMaintenance.name, () => {
    const spec = { table: 'messages', bucket: 'month' as const, ahead: 3, retention: 13 };

    it('creates the current bucket and those ahead that are missing', () => {
      const plan = planMaintenance(spec, at('2026-11-27T10:00:00Z'), ['messages_p_old', 'messages_p2026_11', 'messages_p2026_12']);
      expect(plan.create.map((p) => p.name)).toEqual(['messages_p2027_01', 'messages_p2027_02']);
      expect(plan.create[0]).toEqual({ name: 'messages_p2027_01', start: at('2027-01-01T00:00:00Z'), end: at('2027-02-01T00:00:00Z') });
      expect(plan.drop).toEqual([]);
    });

    it('drops exactly the buckets wholly older than retention, oldest first, never a catch-all', () => {
      const existing = ['messages_p_old', 'messages_p2025_10', 'messages_p2025_08', 'messages_p2025_09', 'messages_p2025_11', 'messages_p_legacy'];
      const plan = planMaintenance(spec, at('2026-11-27T10:00:00Z'), existing);
      // 13 months before November 2026 starts October 2025: September ends where the kept history begins.
      expect(plan.drop.map((p) => p.name)).toEqual(['messages_p2025_08', 'messages_p2025_09']);
    });

    it('keeps a day bucket until all of it is past retention', () => {
      const days = { table: 'webhook_events', bucket: 'day' as const, ahead: 2, retention: 30 };
      const plan = planMaintenance(days, at('2026-11-27T23:59:00Z'), ['webhook_events_p2026_10_27', 'webhook_events_p2026_10_28']);
      expect(plan.drop.map((p) => p.name)).toEqual(['webhook_events_p2026_10_27']);
      expect(plan.create.map((p) => p.name)).toEqual(['webhook_events_p2026_11_27', 'webhook_events_p2026_11_28', 'webhook_events_p2026_11_29']);
    });
  });
});
