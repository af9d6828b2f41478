import { SerializedJson, serializeInSlices } from '../../../../src/common/http/serialized-json';

const entry = (i: number) => ({
  to: `614${String(i).padStart(8, '0')}`,
  message: i % 3 ? `Hello ${i} "quoted" \\ back\n` : `Kia ora ${i} 👋 — ok`,
  cost: i % 7 ? 1 : undefined,
  id: i,
});

describe('serializeInSlices', () => {
  it.each([0, 1, 4, 5, 6, 23])('writes exactly JSON.stringify of a body whose last member is an array of %i entries, and its UTF-8 bytes', async (count) => {
    const body = { status: 'complete', send_id: 7, total_cost: 1.5, results: Array.from({ length: count }, (_, i) => entry(i)) };

    const json = await serializeInSlices(body, 'results', 5);

    expect(json.text).toBe(JSON.stringify(body));
    expect(json.bytes.equals(Buffer.from(JSON.stringify(body), 'utf8'))).toBe(true);
  });

  it('falls back to one JSON.stringify when the array is not the last member', async () => {
    const body = { results: [entry(1), entry(2)], status: 'complete' };

    const json = await serializeInSlices(body, 'results', 1);

    expect(json.text).toBe(JSON.stringify(body));
    expect(json.bytes.toString('utf8')).toBe(JSON.stringify(body));
  });

  it('lets the event loop turn between slices', async () => {
    const body = { results: Array.from({ length: 30 }, (_, i) => entry(i)) };
    let turned = false;
    setImmediate(() => (turned = true));

    const json = await serializeInSlices(body, 'results', 10);

    expect(turned).toBe(true);
    expect(json.text).toBe(JSON.stringify(body));
  });
});

describe(SerializedJson.name, () => {
  it('encodes a text given whole', () => {
    const json = new SerializedJson('{"a":"👋"}');

    expect(json.text).toBe('{"a":"👋"}');
    expect(json.bytes.equals(Buffer.from('{"a":"👋"}', 'utf8'))).toBe(true);
  });
});
