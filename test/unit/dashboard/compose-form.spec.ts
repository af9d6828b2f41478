import { composeFields, readCompose, splitNumbers } from '../../../src/dashboard/send/compose-form';

const KEY = '0190aaaa-0000-7000-8000-000000000000';
const NOW = new Date('2026-11-27T00:00:00Z');
const base = { form_key: KEY, to_kind: 'numbers', numbers: '0412345678', sender: 'Brand', message: 'Hi', when: 'now' };

describe(readCompose.name, () => {
  const read = (fields: Record<string, string>) => readCompose(composeFields({ ...base, ...fields }, 'fallback'), 'Australia/Sydney', NOW);

  it('reads a scheduled day and time on the account’s clocks, the repeated hour as its first occurrence', () => {
    expect(read({ when: 'later', send_date: '2027-01-15', send_time: '09:30' }).scheduledAt).toEqual(new Date('2027-01-14T22:30:00Z'));
    expect(read({ when: 'later', send_date: '2027-04-04', send_time: '02:30' }).scheduledAt).toEqual(new Date('2027-04-03T15:30:00Z'));
    expect(read({ when: 'now', send_date: '2027-01-15', send_time: '09:30' }).scheduledAt).toBeNull();
  });

  it('refuses a skipped time, a past time and a malformed one with their texts', () => {
    expect(() => read({ when: 'later', send_date: '2027-10-03', send_time: '02:30' })).toThrow(
      'That time does not exist in Australia/Sydney: clocks skip that hour when daylight saving starts. Choose another time.',
    );
    expect(() => read({ when: 'later', send_date: '2026-11-26', send_time: '09:00' })).toThrow('That time has passed. Choose a later time, or send now.');
    expect(() => read({ when: 'later', send_date: '2027-02-30', send_time: '09:00' })).toThrow('Enter the day and time to send, such as 2026-12-01 and 09:30');
  });

  it('needs recipients and a message, and a stagger only for lists, within 1 to 1440 minutes', () => {
    expect(() => read({ numbers: ' \n , ' })).toThrow('Enter at least one mobile number');
    expect(() => read({ to_kind: 'list', list_id: '' })).toThrow('Choose a list to send to');
    expect(() => read({ message: '   ' })).toThrow('Enter a message');
    expect(read({ to_kind: 'list', list_id: '7', stagger_minutes: '30' })).toMatchObject({ recipients: { kind: 'list', listId: 7 }, staggerMinutes: 30 });
    expect(() => read({ to_kind: 'list', list_id: '7', stagger_minutes: '0' })).toThrow('stagger_minutes must be between 1 and 1440');
    expect(read({ stagger_minutes: '30' }).staggerMinutes).toBeUndefined();
  });

  it('keeps the message as typed and falls back to a new key when the form’s is not a UUID', () => {
    expect(read({ message: '  Hi\r\nthere ' }).message).toBe('  Hi\nthere ');
    expect(composeFields({ ...base, form_key: 'nope' }, 'fallback').form_key).toBe('fallback');
  });
});

describe(splitNumbers.name, () => {
  it('splits on lines, commas and semicolons and keeps one of each mobile in whatever form it was typed', () => {
    expect(splitNumbers('0412 345 678\n+61412345678, 0412345679;12345\n\n12345')).toEqual(['0412 345 678', '0412345679', '12345']);
  });
});
