import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** Part boundaries through the API: cost = parts × 1 credit, so the cost shows the part count. */
describe('Message parts and encoding (POST /v1/messages)', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    // Acceptance only: no delivery workers in this process, so statuses stay as the send left them.
    t = await startTestApp({ appRole: 'api' });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { test: true, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  async function partsOf(message: string, options: { enable_unicode?: boolean; max_parts?: number } = {}) {
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { ...options, messages: [{ to: '0412345678', message, sender: 'Brand' }] } });
    expect(res.status).toBe(200);
    const entry = res.body.results[0];
    return entry.status === 'success' ? (entry.cost as number) : (entry.error as string);
  }

  it.each([
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
    [459, 3],
    [460, 4],
    [765, 5],
  ])('counts %i GSM-7 characters as %i part(s) (160 single, 153 per part beyond)', async (length, parts) => {
    expect(await partsOf('a'.repeat(length))).toBe(parts);
  });

  it('counts each extension character as two and never splits one across parts', async () => {
    expect(await partsOf('€'.repeat(80))).toBe(1); // 160 septets
    expect(await partsOf(`${'a'.repeat(159)}€`)).toBe(2); // 161 septets
    // 152 plain + € would need the escape in part 1 and the character in part 2, so € moves wholly: 3 parts for 152+2+152+...
    expect(await partsOf(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toBe(3);
    expect(await partsOf(`${'a'.repeat(151)}€${'a'.repeat(153)}`)).toBe(2);
  });

  it.each([
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
    [201, 3],
    [202, 4],
  ])('counts %i UCS-2 units as %i part(s) with enable_unicode (70 single, 67 per part beyond)', async (length, parts) => {
    expect(await partsOf(`ж${'a'.repeat(length - 1)}`, { enable_unicode: true })).toBe(parts);
  });

  it('never splits an emoji (surrogate pair) across parts', async () => {
    expect(await partsOf(`${'ж'.repeat(68)}😀`, { enable_unicode: true })).toBe(1); // 70 units
    expect(await partsOf(`${'ж'.repeat(69)}😀`, { enable_unicode: true })).toBe(2); // 71 units
    expect(await partsOf(`${'ж'.repeat(66)}😀${'ж'.repeat(66)}`, { enable_unicode: true })).toBe(3); // emoji would straddle 67|68
    expect(await partsOf(`${'ж'.repeat(65)}😀${'ж'.repeat(67)}`, { enable_unicode: true })).toBe(2);
  });

  it('keeps GSM-7 text GSM-7 even with enable_unicode', async () => {
    expect(await partsOf('a'.repeat(160), { enable_unicode: true })).toBe(1);
  });

  it('refuses non-GSM text without enable_unicode', async () => {
    expect(await partsOf('Price in ¥ is fine but ж is not')).toBe('Message contains characters that require enable_unicode');
    expect(await partsOf('emoji 😀')).toBe('Message contains characters that require enable_unicode');
  });

  it('caps parts at 5 by default and at max_parts when given', async () => {
    expect(await partsOf('a'.repeat(766))).toBe('Message exceeds the maximum of 5 parts');
    expect(await partsOf('a'.repeat(161), { max_parts: 1 })).toBe('Message exceeds the maximum of 1 parts');
    expect(await partsOf('a'.repeat(153 * 10), { max_parts: 10 })).toBe(10);
    expect(await partsOf('a'.repeat(153 * 99), { max_parts: 99 })).toBe(99);
  });
});
