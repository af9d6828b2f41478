import { SCORECARD_USAGE, scorecardOptions, UsageError } from '../../../bench/scorecard-options';

describe('bench:scorecard arguments', () => {
  it('runs three rounds of every part by default', () => {
    expect(scorecardOptions([])).toEqual({ help: false, rounds: 3, parts: ['campaign', 'webhooks', 'links', 'send'], baseline: undefined });
  });

  it('takes rounds, a baseline and some parts, keeping the parts in their usual order', () => {
    expect(scorecardOptions(['--rounds', '5', '--only', 'send,campaign', '--baseline', '/tmp/base'])).toEqual({
      help: false,
      rounds: 5,
      parts: ['campaign', 'send'],
      baseline: '/tmp/base',
    });
  });

  it('reads a stray comma in --only as naming nothing more', () => {
    expect(scorecardOptions(['--only', 'campaign,'])).toMatchObject({ parts: ['campaign'] });
    expect(scorecardOptions(['--only', ',links,,send'])).toMatchObject({ parts: ['links', 'send'] });
  });

  it('answers --help (or -h) with the usage instead of a run, whatever else is given', () => {
    expect(scorecardOptions(['--rounds', '5', '--help'])).toEqual({ help: true });
    expect(scorecardOptions(['-h'])).toEqual({ help: true });
    expect(SCORECARD_USAGE).toContain('--baseline DIR');
  });

  it.each([
    [['--round', '5'], "unknown argument '--round'"],
    [['5'], "unknown argument '5'"],
    [['--rounds'], '--rounds takes a value'],
    [['--baseline', '--rounds', '2'], '--baseline takes a value'],
    [['--rounds', '0'], '--rounds takes a whole number of rounds, 1 or more'],
    [['--rounds', '2.5'], '--rounds takes a whole number of rounds, 1 or more'],
    [['--only', 'campaign,hooks'], "--only takes some of campaign,webhooks,links,send; not 'hooks'"],
    [['--only', ','], '--only takes some of campaign,webhooks,links,send'],
  ])('refuses %j before any benchmark runs: %s', (args, message) => {
    expect(() => scorecardOptions(args)).toThrow(UsageError);
    expect(() => scorecardOptions(args)).toThrow(message);
  });
});
