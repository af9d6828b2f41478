import { hundredthsToFixed, hundredthsToNumber, parseCreditsToHundredths } from '../../../src/billing/money';

describe('money', () => {
  it('formats hundredths as API numbers and two-decimal strings', () => {
    expect(hundredthsToNumber(12550)).toBe(125.5);
    expect(hundredthsToNumber(7)).toBe(0.07);
    expect(hundredthsToFixed(12550)).toBe('125.50');
    expect(hundredthsToFixed(5)).toBe('0.05');
    expect(hundredthsToFixed(-250)).toBe('-2.50');
  });

  it('parses operator amounts with at most two decimals', () => {
    expect(parseCreditsToHundredths('12')).toBe(1200);
    expect(parseCreditsToHundredths('12.5')).toBe(1250);
    expect(parseCreditsToHundredths(' 0.07 ')).toBe(7);
    for (const bad of ['-1', '1.234', 'abc', '', '1e3', '.5']) expect(parseCreditsToHundredths(bad)).toBeNull();
  });
});
