import { compileTemplate } from '../../../src/common/sms';
import { LinkRewriter } from '../../../src/links/link-rewriter';
import { checkEntry, composeEntry, SendOptions } from '../../../src/messaging/message-rules';
import { parseDay, parseDayRange } from '../../../src/common/time/date-range';
import { ActiveSenders } from '../../../src/senders/active-senders';

const now = new Date('2026-11-21T06:00:00Z');
const senders = new ActiveSenders(
  new Map([
    ['Brand', 'alpha' as const],
    ['61400000001', 'dedicated' as const],
  ]),
);
const options: SendOptions = { allowUnicode: false, maxParts: 5, partRate: 100, links: new LinkRewriter('https://s.example', false), now };

describe(checkEntry.name, () => {
  it('normalises the recipient and keeps the custom_ref and schedule', () => {
    expect(checkEntry({ to: '0412 345 678', message: 'Hi', sender: 'Brand', custom_ref: 'r', scheduled_for: '2026-12-01T00:00:00' }, senders, now)).toEqual({
      to: '61412345678',
      template: 'Hi',
      sender: 'Brand',
      senderType: 'alpha',
      customRef: 'r',
      scheduledAt: new Date('2026-12-01T00:00:00Z'),
    });
  });

  it.each(['0400 000 001', '+61400000001', '61400000001', '(04) 0000-0001', '0400.000.001'])(
    'accepts the numeric sender %j in any mobile form and answers its normalised form',
    (sender) => {
      expect(checkEntry({ to: '0412345678', message: 'Hi', sender }, senders, now)).toMatchObject({ sender: '61400000001', senderType: 'dedicated' });
    },
  );

  it('shows the normalised sender on an entry that fails after the sender matched', () => {
    expect(checkEntry({ to: '0412345678', message: 'Hi', sender: '0400 000 001', scheduled_for: 'soon' }, senders, now)).toMatchObject({
      ok: false,
      sender: '61400000001',
      error: 'scheduled_for is not a valid datetime',
    });
  });

  it.each(['brand', 'Brand ', ' Brand', 'BRAND'])('matches alphanumeric senders exactly: %j is refused', (sender) => {
    expect(checkEntry({ to: '0412345678', message: 'Hi', sender }, senders, now)).toMatchObject({
      ok: false,
      sender,
      error: 'Invalid sender. You do not have permission to use this sender',
    });
  });

  it.each([
    [{}, 'to is required'],
    ['not an object', 'to is required'],
    [{ to: 412345678, message: 'x', sender: 'Brand' }, 'Invalid phone number format'],
    [{ to: '0412345678', message: 5, sender: 'Brand' }, 'message is required'],
    [{ to: '0412345678', message: 'x', sender: 'Other' }, 'Invalid sender. You do not have permission to use this sender'],
    [{ to: '0412345678', message: 'x', sender: 'Brand', custom_ref: 7 }, 'custom_ref must be a string'],
    [{ to: '0412345678', message: 'x', sender: 'Brand', scheduled_for: '2026-12-01' }, 'scheduled_for is not a valid datetime'],
    [{ to: '0412345678', message: 'hi\u0000there', sender: 'Brand' }, 'message must not contain NUL characters or unpaired surrogates'],
    [{ to: '0412345678', message: 'emoji cut \ud83d', sender: 'Brand' }, 'message must not contain NUL characters or unpaired surrogates'],
    [{ to: '0412345678', message: 'x', sender: 'Brand', custom_ref: 'ref\u0000' }, 'custom_ref must not contain NUL characters or unpaired surrogates'],
    [{ to: '0412345678', message: 'x', sender: 'Bra\u0000nd' }, 'Invalid sender. You do not have permission to use this sender'],
    [{ to: '0412\u0000345678', message: 'x', sender: 'Brand' }, 'Invalid phone number format'],
  ])('reports %j as %s', (raw, error) => {
    expect(checkEntry(raw, senders, now)).toMatchObject({ ok: false, error });
  });
});

describe(composeEntry.name, () => {
  const entry = (template: string, sender = 'Brand') =>
    checkEntry({ to: '0412345678', message: template, sender }, senders, now) as Exclude<ReturnType<typeof checkEntry>, { ok: false }>;

  it('renders fields then {optout}, and prices the final text', () => {
    const e = entry(`${'a'.repeat(140)} {first_name}{optout}`, '61400000001');
    const composed = composeEntry(e, compileTemplate(e.template), { first_name: 'Ann' }, options);
    expect(composed).toMatchObject({ ok: true, text: `${'a'.repeat(140)} Ann Opt out: Reply Stop`, encoding: 'gsm7', parts: 2, cost: 200 });
  });

  it('uses a per-recipient link for alphanumeric senders, shorter than the account link', () => {
    const e = entry('Hi{optout}');
    expect(composeEntry(e, compileTemplate(e.template), {}, options)).toMatchObject({ text: expect.stringMatching(/^Hi OptOut https:\/\/s\.example\/o\/[0-9A-Za-z]{7}$/) });
  });

  it('does not expand placeholders inside contact values', () => {
    const e = entry('{first_name}');
    expect(composeEntry(e, compileTemplate(e.template), { first_name: '{optout}{last_name}' }, options)).toMatchObject({ text: '{optout}{last_name}' });
  });

  it('reports unicode and part-cap failures with their texts', () => {
    const u = entry('ж');
    expect(composeEntry(u, compileTemplate(u.template), {}, options)).toMatchObject({ ok: false, error: 'Message contains characters that require enable_unicode' });
    const long = entry('a'.repeat(161));
    expect(composeEntry(long, compileTemplate(long.template), {}, { ...options, maxParts: 1 })).toMatchObject({ ok: false, error: 'Message exceeds the maximum of 1 parts' });
  });
});

describe(parseDay.name, () => {
  it('reads real days only', () => {
    expect(parseDay('2026-03-01')).toEqual(new Date('2026-03-01T00:00:00Z'));
    for (const bad of ['2026-02-30', '2026-3-1', '2026/03/01', '', '0000-01-01', '10000-01-01', '+10000-01-01']) expect(parseDay(bad)).toBeNull();
  });

  it('reads the years 0001-0099 as written (Date.UTC would make them 1900-1999)', () => {
    expect(parseDay('0050-06-01')?.toISOString()).toBe('0050-06-01T00:00:00.000Z');
    expect(parseDay('0001-01-01')?.toISOString()).toBe('0001-01-01T00:00:00.000Z');
  });
});

describe(parseDayRange.name, () => {
  it('turns inclusive days into a half-open range whose bounds serialise as four-digit years', () => {
    const range = parseDayRange('0001-01-01', '9999-12-30');
    expect(range.from?.toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(range.toExclusive?.toISOString()).toBe('9999-12-31T00:00:00.000Z');
  });

  it('leaves the range open above for to=9999-12-31 rather than naming year 10000', () => {
    expect(parseDayRange(undefined, '9999-12-31')).toEqual({});
  });

  it('answers the interface texts for days it cannot represent', () => {
    expect(() => parseDayRange('0000-12-31', undefined)).toThrow(new Error('Invalid from date; expected format YYYY-MM-DD'));
    expect(() => parseDayRange(undefined, '10000-01-01')).toThrow(new Error('Invalid to date; expected format YYYY-MM-DD'));
  });
});
