import { formatReceiptText, parseReceiptDate, parseReceiptText, receiptOutcome, statFromMessageState } from '../../../src/smpp/receipt-text';
import fc from 'fast-check';

describe(parseReceiptText.name, () => {
  it('reads every field of the standard receipt text', () => {
    const parsed = parseReceiptText('id:7f3a9c01 sub:001 dlvrd:001 submit date:2411210930 done date:2411210931 stat:DELIVRD err:000 text:Hello there');
    expect(parsed).toEqual({
      id: '7f3a9c01',
      sub: '001',
      dlvrd: '001',
      submitDate: new Date(Date.UTC(2024, 10, 21, 9, 30)),
      doneDate: new Date(Date.UTC(2024, 10, 21, 9, 31)),
      stat: 'DELIVRD',
      err: '000',
      text: 'Hello there',
    });
  });

  it('ignores look-alike fields inside the message text', () => {
    const parsed = parseReceiptText('id:abc sub:001 dlvrd:000 submit date:2411210930 done date:2411210931 stat:UNDELIV err:001 text:id:xyz stat:DELIVRD');
    expect(parsed.id).toBe('abc');
    expect(parsed.stat).toBe('UNDELIV');
    expect(parsed.text).toBe('id:xyz stat:DELIVRD');
  });

  it('accepts lower-case keys and dates with seconds', () => {
    const parsed = parseReceiptText('ID:1 SUB:001 DLVRD:001 SUBMIT DATE:241121093005 DONE DATE:241121093107 STAT:delivrd ERR:000');
    expect(parsed.stat).toBe('DELIVRD');
    expect(parsed.doneDate).toEqual(new Date(Date.UTC(2024, 10, 21, 9, 31, 7)));
    expect(parsed.text).toBeNull();
  });

  it('reads dates in the SMSC clock when given its UTC offset', () => {
    const parsed = parseReceiptText('id:1 done date:2411212030 stat:DELIVRD', 600);
    expect(parsed.doneDate).toEqual(new Date(Date.UTC(2024, 10, 21, 10, 30)));
  });

  it('gives null for fields that are missing', () => {
    expect(parseReceiptText('stat:EXPIRED')).toEqual({
      id: null,
      sub: null,
      dlvrd: null,
      submitDate: null,
      doneDate: null,
      stat: 'EXPIRED',
      err: null,
      text: null,
    });
  });

  it('reads back what formatReceiptText writes', () => {
    const text = formatReceiptText({
      id: 'a1',
      delivered: false,
      stat: 'UNDELIV',
      err: '001',
      submitDate: new Date(Date.UTC(2025, 0, 2, 3, 4)),
      doneDate: new Date(Date.UTC(2025, 0, 2, 3, 5)),
      text: 'a message longer than twenty characters',
    });
    expect(text).toBe('id:a1 sub:001 dlvrd:000 submit date:2501020304 done date:2501020305 stat:UNDELIV err:001 text:a message longer tha');
    expect(parseReceiptText(text).doneDate).toEqual(new Date(Date.UTC(2025, 0, 2, 3, 5)));
  });
});

describe(parseReceiptDate.name, () => {
  it.each(['2413011200', '2411320000', '2411212460', '24112112', 'abcdefghij'])('rejects %s as not a date', (value) => {
    expect(parseReceiptDate(value)).toBeNull();
  });
});

describe(receiptOutcome.name, () => {
  it.each([
    ['DELIVRD', 'delivered'],
    ['UNDELIV', 'failed'],
    ['REJECTD', 'failed'],
    ['EXPIRED', 'failed'],
    ['UNKNOWN', 'failed'],
    ['DELETED', 'failed'],
    ['ENROUTE', 'intermediate'],
    ['ACCEPTD', 'intermediate'],
  ])('maps stat %s to %s', (stat, outcome) => {
    expect(receiptOutcome(stat)).toBe(outcome);
  });

  it('does not guess an outcome for an unknown stat', () => {
    expect(receiptOutcome('WHATEVER')).toBeNull();
  });
});

describe(statFromMessageState.name, () => {
  it('maps message_state 2 to DELIVRD and 5 to UNDELIV', () => {
    expect(statFromMessageState(2)).toBe('DELIVRD');
    expect(statFromMessageState(5)).toBe('UNDELIV');
    expect(statFromMessageState(42)).toBeNull();
  });
});

/** The reading the one-pass parser replaced: regular expressions over the fields before `text:`. */
function regexReading(text: string): Record<string, string> {
  const textMatch = /(?:^|\s)text:/i.exec(text);
  const head = textMatch ? text.slice(0, textMatch.index) : text;
  const found: Record<string, string> = {};
  for (const [, key, value] of head.matchAll(/(?:^|\s)(id|sub|dlvrd|submit[ _]date|done[ _]date|stat|err):(\S+)/gi)) {
    const name = key.length > 5 ? key.slice(0, key.length - 5).toLowerCase() + 'date' : key.toLowerCase();
    if (!(name in found)) found[name] = value;
  }
  return found;
}

describe('parseReceiptText against the regular-expression reading', () => {
  it('finds the same fields in any text made of receipt-like pieces', () => {
    const piece = fc.oneof(
      fc.constantFrom('id:', 'ID:', 'sub:', 'dlvrd:', 'submit date:', 'Submit_Date:', 'done date:', 'DONE_DATE:', 'stat:', 'err:', 'text:', 'Text:', 'xid:', 'stat:'),
      fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u3000', ':', '_'),
      fc.stringMatching(/^[A-Za-z0-9]{0,12}$/),
      fc.constantFrom('2411210930', '241121093005', 'DELIVRD', 'undeliv', '000', 'abc123'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        const parsed = parseReceiptText(text);
        const expected = regexReading(text);
        expect({ id: parsed.id, sub: parsed.sub, dlvrd: parsed.dlvrd, stat: parsed.stat, err: parsed.err }).toEqual({
          id: expected.id ?? null,
          sub: expected.sub ?? null,
          dlvrd: expected.dlvrd ?? null,
          stat: expected.stat?.toUpperCase() ?? null,
          err: expected.err ?? null,
        });
        const leading = (v: string | undefined) => (v === undefined ? null : /^\d*/.exec(v)![0] === '' ? null : parseReceiptDate(/^\d*/.exec(v)![0]));
        expect([parsed.submitDate, parsed.doneDate]).toEqual([leading(expected.submitdate), leading(expected.donedate)]);
      }),
      { numRuns: 3000 },
    );
  });
});
