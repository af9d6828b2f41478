import { ActiveSenders } from '../../../src/senders/active-senders';

describe(ActiveSenders.name, () => {
  const senders = new ActiveSenders(
    new Map([
      ['HarbourBake', 'alpha' as const],
      ['61412345678', 'dedicated' as const],
      ['1900123', 'shared' as const],
    ]),
  );

  it.each(['0412345678', '0412 345 678', '+61412345678', '61412345678', '+61 412 345 678', '(04) 1234-5678', '412345678'])(
    'matches the mobile sender written as %j and gives its stored form',
    (requested) => {
      expect(senders.match(requested)).toEqual({ value: '61412345678', type: 'dedicated' });
    },
  );

  it('matches other numbers by their digits', () => {
    expect(senders.match('1900 123')).toEqual({ value: '1900123', type: 'shared' });
  });

  it('matches alphanumeric Sender IDs exactly (case and spaces count)', () => {
    expect(senders.match('HarbourBake')).toEqual({ value: 'HarbourBake', type: 'alpha' });
    expect(senders.match('harbourbake')).toBeUndefined();
    expect(senders.match('HarbourBake ')).toBeUndefined();
  });

  it('matches nothing for another number, a non-string or an empty value', () => {
    expect(senders.match('0412345679')).toBeUndefined();
    expect(senders.match(61412345678)).toBeUndefined();
    expect(senders.match(['0412345678'])).toBeUndefined();
    expect(senders.match('')).toBeUndefined();
  });
});
