import { roundSchedule } from '../../../bench/scorecard-schedule';

const steps = (round: number, checkouts: number, parts: Parameters<typeof roundSchedule>[2]) => roundSchedule(round, checkouts, parts).map((s) => `${s.bench}@${s.checkout}`);

describe('bench:scorecard round schedule', () => {
  it('runs Kannel once per round, from this checkout, before each checkout’s campaign', () => {
    expect(steps(1, 2, ['campaign'])).toEqual(['kannel@0', 'dispatch@0', 'dispatch@1']);
    expect(steps(1, 1, ['campaign', 'webhooks'])).toEqual(['kannel@0', 'dispatch@0', 'webhooks@0']);
  });

  it('alternates which checkout goes first from round to round, for every part', () => {
    const all = ['campaign', 'webhooks', 'links', 'send'] as const;
    expect(steps(1, 2, all)).toEqual(['kannel@0', 'dispatch@0', 'dispatch@1', 'webhooks@0', 'webhooks@1', 'links@0', 'links@1', 'send@0', 'send@1']);
    expect(steps(2, 2, all)).toEqual(['kannel@0', 'dispatch@1', 'dispatch@0', 'webhooks@1', 'webhooks@0', 'links@1', 'links@0', 'send@1', 'send@0']);
    expect(steps(3, 2, all)).toEqual(steps(1, 2, all));
  });

  it('runs only the parts asked for', () => {
    expect(steps(2, 2, ['links'])).toEqual(['links@1', 'links@0']);
    expect(steps(1, 1, [])).toEqual([]);
  });
});
