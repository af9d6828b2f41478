import { parseSenderValue } from '../../../src/senders/sender-value';

describe(parseSenderValue.name, () => {
  it('infers dedicated for numbers and normalises Australian mobiles', () => {
    expect(parseSenderValue('0412 345 678')).toEqual({ value: '61412345678', type: 'dedicated' });
    expect(parseSenderValue('+61412345678', 'shared')).toEqual({ value: '61412345678', type: 'shared' });
    expect(parseSenderValue('1900123')).toEqual({ value: '1900123', type: 'dedicated' });
  });

  it('infers alpha for Sender IDs of 3-11 letters, digits and spaces with a letter', () => {
    expect(parseSenderValue('Acme Co')).toEqual({ value: 'Acme Co', type: 'alpha' });
    expect('error' in parseSenderValue('AB')).toBe(true);
    expect('error' in parseSenderValue('TwelveChars1')).toBe(true);
    expect('error' in parseSenderValue('Acme!')).toBe(true);
  });

  it('refuses a type that contradicts the value', () => {
    expect(parseSenderValue('Acme', 'dedicated')).toEqual({ error: 'A dedicated sender must be a number' });
    expect(parseSenderValue('0412345678', 'alpha')).toEqual({ error: 'An alpha sender must contain a letter' });
  });
});
