import { formatReceiptText, parseReceiptDate, parseReceiptText, receiptOutcome, statFromMessageState } from '../../../src/dispatch/carriers/smpp/receipt';

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
