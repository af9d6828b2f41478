import { formatLocal, formatLocalParts } from '../../../../src/common/time/format';

describe('formatLocal', () => {
  it('writes a moment in daylight time in Sydney and standard time in Brisbane', () => {
    const moment = new Date('2026-01-15T01:02:03Z');
    expect(formatLocal(moment, 'Australia/Sydney')).toBe('2026-01-15 12:02:03 AEDT');
    expect(formatLocal(moment, 'Australia/Brisbane')).toBe('2026-01-15 11:02:03 AEST');
    expect(formatLocal(moment, 'Australia/Perth')).toBe('2026-01-15 09:02:03 AWST');
    expect(formatLocal(moment, 'Australia/Adelaide')).toBe('2026-01-15 11:32:03 ACDT');
  });

  it('follows the end of daylight saving (first Sunday of April, 3 am back to 2 am in Sydney)', () => {
    expect(formatLocal(new Date('2026-04-04T15:59:59Z'), 'Australia/Sydney')).toBe('2026-04-05 02:59:59 AEDT');
    expect(formatLocal(new Date('2026-04-04T16:00:00Z'), 'Australia/Sydney')).toBe('2026-04-05 02:00:00 AEST');
  });

  it('uses 00 for midnight, never 24', () => {
    expect(formatLocalParts(new Date('2026-06-30T14:00:00Z'), 'Australia/Sydney')).toEqual({ text: '2026-07-01 00:00:00', zone: 'AEST' });
  });
});
