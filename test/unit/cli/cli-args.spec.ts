import { parseCommandArgs, UsageError, wantsHelp } from '../../../src/cli/cli-args';

const OPTIONS = {
  name: { type: 'string', required: true, help: 'n' },
  credits: { type: 'string', help: 'c' },
  sender: { type: 'string', multiple: true, help: 's' },
  test: { type: 'boolean', help: 't' },
} as const;

describe(parseCommandArgs.name, () => {
  it('reads values, lists and switches, trimming required values', () => {
    expect(parseCommandArgs(['--name', ' Harbour ', '--sender', 'A', '--sender', 'B', '--test'], OPTIONS)).toEqual({
      name: 'Harbour',
      credits: undefined,
      sender: ['A', 'B'],
      test: true,
    });
  });

  it.each([['-5'], ['-0.25'], ['-12.5']])('takes the negative number %s after a flag as its value', (value) => {
    expect(parseCommandArgs(['--name', 'X', '--credits', value], OPTIONS).credits).toBe(value);
    expect(parseCommandArgs(['--name', 'X', `--credits=${value}`], OPTIONS).credits).toBe(value);
  });

  it('still refuses a flag where a value belongs', () => {
    expect(() => parseCommandArgs(['--name', '--test'], OPTIONS)).toThrow(UsageError);
  });

  it('refuses unknown flags, stray words and a missing required flag with the texts operators see', () => {
    expect(() => parseCommandArgs(['--name', 'X', '--bogus'], OPTIONS)).toThrow("Unknown option '--bogus'");
    expect(() => parseCommandArgs(['--name', 'X', 'stray'], OPTIONS)).toThrow(UsageError);
    expect(() => parseCommandArgs(['--test'], OPTIONS)).toThrow('--name is required');
    expect(() => parseCommandArgs(['--name', '  '], OPTIONS)).toThrow('--name is required');
  });

  it('refuses a flag that takes one value given twice (not a repeatable flag or a switch)', () => {
    expect(() => parseCommandArgs(['--name', 'X', '--credits', '5', '--credits', '500'], OPTIONS)).toThrow('--credits is given more than once (it takes one value)');
    expect(() => parseCommandArgs(['--name', 'X', '--name=Y'], OPTIONS)).toThrow(UsageError);
    expect(() => parseCommandArgs(['--name', 'X', '--credits', '-5', '--credits', '5'], OPTIONS)).toThrow(UsageError);
    expect(parseCommandArgs(['--name', 'X', '--test', '--test'], OPTIONS).test).toBe(true);
    expect(parseCommandArgs(['--name', 'X', '--sender', 'A', '--sender', 'A'], OPTIONS).sender).toEqual(['A', 'A']);
  });

  it('refuses a value longer than its maxLength (counted trimmed, each value of a repeatable flag) with the text operators see', () => {
    const limited = { label: { type: 'string', maxLength: 5, help: 'l' }, tag: { type: 'string', multiple: true, maxLength: 3, help: 't' } } as const;
    expect(parseCommandArgs(['--label', ' abcde '], limited).label).toBe(' abcde ');
    expect(() => parseCommandArgs(['--label', 'abcdef'], limited)).toThrow(new UsageError('--label must be at most 5 characters'));
    expect(parseCommandArgs(['--tag', 'abc', '--tag', 'de'], limited).tag).toEqual(['abc', 'de']);
    expect(() => parseCommandArgs(['--tag', 'abc', '--tag', 'defg'], limited)).toThrow('--tag must be at most 3 characters');
    expect(parseCommandArgs([], limited)).toEqual({ label: undefined, tag: undefined });
  });

  it('does not take a negative number after a switch', () => {
    expect(() => parseCommandArgs(['--name', 'X', '--test', '-5'], OPTIONS)).toThrow(UsageError);
  });
});

describe(wantsHelp.name, () => {
  it('finds --help or -h before a --', () => {
    expect(wantsHelp(['--account', '1', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--account', '1'])).toBe(false);
    expect(wantsHelp(['--', '--help'])).toBe(false);
  });
});
