import { BatchRows } from '../../../src/messaging/batch-rows';
import type { ComposedEntry } from '../../../src/messaging/message-rules';

const NOW = new Date('2030-01-15T10:00:00Z');
const LATER = new Date('2030-01-15T12:00:00Z');

function sendable(to: string, cost = 100, scheduledAt: Date | null = null): ComposedEntry {
  return { ok: true, to, text: `Hi ${to}`, sender: 'Acme', senderType: 'alpha', customRef: `ref-${to}`, scheduledAt, encoding: 'gsm7', parts: cost / 100, cost, links: [] };
}

function failed(to: string, blocked = false): ComposedEntry {
  return { ok: false, to, text: 'Hi', sender: 'Acme', scheduledAt: null, error: blocked ? 'unsubscribed' : 'invalid', ...(blocked ? { blocked } : {}) };
}

describe(BatchRows.name, () => {
  const entries = [sendable('61400000001'), failed('x'), sendable('61400000002', 200, LATER), failed('61400000003', true), sendable('61400000004')];

  it('composes each entry only when its slice is asked for, and gives the sendable ones rows in entry order', () => {
    const composedAt: number[] = [];
    const batch = new BatchRows(entries.length, (i) => (composedAt.push(i), entries[i]), NOW, undefined, 2);

    const first = batch.nextSlice();
    expect(composedAt).toEqual([0, 1]);
    const second = batch.nextSlice();
    const third = batch.nextSlice();

    expect([first, second, third].map((slice) => slice!.map((r) => r.to))).toEqual([['61400000001'], ['61400000002'], ['61400000004']]);
    expect(batch.nextSlice()).toBeNull();
    expect(composedAt).toEqual([0, 1, 2, 3, 4]);
    expect(second![0]).toMatchObject({ body: 'Hi 61400000002', customRef: 'ref-61400000002', status: 'scheduled', scheduledFor: LATER, dispatchAt: LATER, parts: 2, cost: 200 });
    expect(first![0]).toMatchObject({ status: 'pending', scheduledFor: null, dispatchAt: NOW });
  });

  it('answers an empty slice when none of its entries is sendable, and null only once every entry is made', () => {
    const batch = new BatchRows(3, (i) => [failed('a'), failed('b', true), sendable('61400000001')][i], NOW, undefined, 2);

    expect(batch.nextSlice()).toEqual([]);
    expect(batch.nextSlice()).toHaveLength(1);
    expect(batch.nextSlice()).toBeNull();
  });

  it('keeps what every entry became and each sendable one’s own id, the id of its row', async () => {
    const batch = new BatchRows(entries.length, (i) => entries[i], NOW, undefined, 2);

    const rows = await batch.all();

    expect(batch.composed).toEqual(entries);
    expect(batch.ids.map((id) => id !== undefined)).toEqual([true, false, true, false, true]);
    expect(rows.map((r) => r.id)).toEqual(batch.ids.filter((id) => id !== undefined));
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
  });

  it('counts the messages, their cost and the blocked entries, and refuses to before every slice is made', async () => {
    const batch = new BatchRows(entries.length, (i) => entries[i], NOW, undefined, 2);

    batch.nextSlice();
    expect(() => batch.totals()).toThrow('once every slice is made');
    await batch.all();

    expect(batch.totals()).toEqual({ messageCount: 3, totalCost: 400, blockedCount: 1 });
  });

  it('tells onRow each message’s entry, id and place among the rows (a send’s links are tied to them)', async () => {
    const seen: Array<[string, number, number]> = [];
    const batch = new BatchRows(
      entries.length,
      (i) => entries[i],
      NOW,
      (entry, id, row, index) => seen.push([entry.to, row, index]),
      2,
    );

    const rows = await batch.all();

    expect(seen).toEqual([
      ['61400000001', 0, 0],
      ['61400000002', 1, 2],
      ['61400000004', 2, 4],
    ]);
    expect(rows).toHaveLength(3);
  });

  it('makes nothing of an empty batch', async () => {
    const batch = new BatchRows(
      0,
      () => {
        throw new Error('no entry to compose');
      },
      NOW,
    );

    expect(batch.nextSlice()).toBeNull();
    expect(await batch.all()).toEqual([]);
    expect(batch.totals()).toEqual({ messageCount: 0, totalCost: 0, blockedCount: 0 });
  });
});
