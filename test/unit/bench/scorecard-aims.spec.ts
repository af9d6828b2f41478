import { AIMS, figuresFromOutput, meets, Round, roundFigures, scorecardLines } from '../../../bench/scorecard-aims';

const aim = (key: string) => AIMS.find((a) => a.key === key)!;
const passing: Round = { campaign: 1.12, probeP99Ms: 128, webhooks: 1.9, links: 1.66, post: 1.37, listSend: 1.06, postCopy: 1.58, listSendCopy: 1.37 };

describe('bench:scorecard aims', () => {
  it('divides the campaign rate by the same round’s Kannel rate and keeps each ratio as reported', () => {
    expect(
      roundFigures({
        kannel: { sustained: 14000 },
        dispatch: { sustained: 15400, probeP99Ms: 163.1 },
        webhooks: { ratio: 2.89, durableRatio: 1.91, afterStoredRatio: 2.31 },
        links: { ratio: 1.7 },
        send: { post: 1.37, postCopy: 1.58, listSend: 1.06, listSendCopy: 1.37 },
      }),
    ).toEqual({
      campaign: 1.1,
      probeP99Ms: 163.1,
      webhooks: 2.89,
      webhooksAfterStored: 2.31,
      webhooksDurable: 1.91,
      durableOverFloor: 2.89 / 1.91,
      links: 1.7,
      post: 1.37,
      postCopy: 1.58,
      listSend: 1.06,
      listSendCopy: 1.37,
    });
    // Without the durable floor's ratio (a checkout from before it) there is no quotient either.
    expect(roundFigures({ webhooks: { ratio: 2.89 } })).toEqual({ webhooks: 2.89 });
    // A failed Kannel run leaves the campaign's ratio out rather than dividing by nothing.
    expect(roundFigures({ dispatch: { sustained: 15400, probeP99Ms: 90 } })).toEqual({ probeP99Ms: 90 });
  });

  it('judges each aim at its bound, and a missing figure as a miss', () => {
    expect(meets(aim('campaign'), 1)).toBe(true);
    expect(meets(aim('campaign'), 0.99)).toBe(false);
    expect(meets(aim('probeP99Ms'), 250)).toBe(true);
    expect(meets(aim('probeP99Ms'), 251)).toBe(false);
    expect(meets(aim('post'), 1.5)).toBe(true);
    expect(meets(aim('post'), 1.54)).toBe(false);
    expect(meets(aim('webhooks'), 2.04)).toBe(false);
    expect(meets(aim('links'), undefined)).toBe(false);
    expect(meets(aim('links'), Number.NaN)).toBe(false);
  });

  it('judges a figure as it is shown, so an exact figure and a printed one are judged alike', () => {
    // A baseline's figure read from its printed line is rounded ("1.50×"); this checkout's exact one is not.
    expect(meets(aim('post'), 1.503)).toBe(meets(aim('post'), 1.5));
    expect(meets(aim('post'), 1.506)).toBe(false);
    expect(meets(aim('probeP99Ms'), 250.4)).toBe(true);
    expect(meets(aim('probeP99Ms'), 250.6)).toBe(false);
    expect(meets(aim('campaign'), 0.996)).toBe(true);
    expect(meets(aim('campaign'), 0.994)).toBe(false);
  });

  it('reads the figures from the lines a benchmark prints (a baseline from before result files)', () => {
    expect(figuresFromOutput('kannel', '  sustained at the peer                14368 messages/s\n')).toEqual({ sustained: 14368 });
    expect(
      figuresFromOutput(
        'dispatch',
        [
          '  sustained at the peer                13687 messages/s (first to last submit_sm: 3.65 s)',
          "  GET /v1/account during the run       p50 18.4 ms, p99 163.1 ms, max 163.1 ms over 71 requests (the first, the route's first in this process: 30.7 ms)",
        ].join('\n'),
      ),
    ).toEqual({ sustained: 13687, probeP99Ms: 163.1 });
    expect(
      figuresFromOutput(
        'webhooks',
        [
          '  run 1 / floor = 2.89× (CPU per event 3.74×; load average 1.35, 1.24, 0.85)',
          '  run 1 once stored / floor = 2.31× (delivered 5.38 s after the events were stored)',
          '  run 1 / durable floor = 1.91× (CPU per event 2.13×; load average 2.18, 1.80, 2.14)',
        ].join('\n'),
      ),
    ).toEqual({ ratio: 2.89, durableRatio: 1.91, afterStoredRatio: 2.31 });
    // A checkout from before the durable floor: the plain floor's ratio alone.
    expect(figuresFromOutput('webhooks', '  run 1 / floor = 2.89× (CPU per event 3.74×; load average 1.35, 1.24, 0.85)')).toEqual({ ratio: 2.89 });
    expect(figuresFromOutput('links', '  floor rate / product rate = 1.70× (CPU per click 1.65×; load average 1.68, 1.32, 0.89)')).toEqual({ ratio: 1.7 });
    expect(
      figuresFromOutput(
        'send',
        ['  API p50 / floor p50 = 1.37×', '  API p50 / COPY floor p50 = 1.58×', '  list-send p50 / floor p50 = 1.06×', '  list-send p50 / COPY floor p50 = 1.37×'].join('\n'),
      ),
    ).toEqual({ post: 1.37, postCopy: 1.58, listSend: 1.06, listSendCopy: 1.37 });
    expect(figuresFromOutput('webhooks', 'Error: connect ECONNREFUSED')).toBeUndefined();
  });

  it('says every aim was met only when every round met every aim', () => {
    const met = scorecardLines([passing, passing, passing]);
    expect(met.allMet).toBe(true);
    expect(met.lines.at(-1)).toBe('every aim met in all 3 rounds');
    expect(met.lines.find((l) => l.startsWith('status webhooks ÷ undici'))).toMatch(/ 1\.90× +1\.90× +1\.90× +3\/3$/);

    const oneMiss = scorecardLines([passing, { ...passing, campaign: 0.95 }, passing]);
    expect(oneMiss.allMet).toBe(false);
    const campaign = oneMiss.lines.find((l) => l.startsWith('campaign rate'))!;
    expect(campaign).toContain('0.95×!');
    expect(campaign).toMatch(/2\/3$/);
    expect(oneMiss.lines.at(-1)).toContain('not every aim met');

    // A benchmark that failed is a miss, shown as '–'.
    const failed = scorecardLines([{ ...passing, links: undefined }]);
    expect(failed.allMet).toBe(false);
    expect(failed.lines.find((l) => l.startsWith('redirects'))).toContain('–!');

    expect(scorecardLines([]).allMet).toBe(false);
  });

  it('judges only the aims of the parts that ran', () => {
    const { lines, allMet } = scorecardLines([{ webhooks: 1.8, links: 1.7 }], undefined, ['webhooks', 'links']);
    expect(allMet).toBe(true);
    expect(lines.filter((l) => /\d\/1$/.test(l))).toHaveLength(2);
    expect(lines.some((l) => l.startsWith('campaign rate') || l.startsWith('POST'))).toBe(false);
  });

  it('shows the durable floor over the plain floor beside the webhook aim, judged by no bound', () => {
    const { lines, allMet } = scorecardLines([{ webhooks: 1.9, durableOverFloor: 2.2 }], undefined, ['webhooks']);
    expect(allMet).toBe(true);
    expect(lines.find((l) => l.startsWith('durable floor ÷ undici Pool floor'))).toMatch(/ 2\.20× +$/);
  });

  it('shows the webhooks once stored over the plain floor beside the webhook aim, judged by no bound', () => {
    const { lines, allMet } = scorecardLines([{ webhooks: 1.9, webhooksAfterStored: 2.3 }], undefined, ['webhooks']);
    expect(allMet).toBe(true);
    expect(lines.find((l) => l.startsWith('status webhooks once stored ÷ undici Pool floor'))).toMatch(/ 2\.30× +$/);
  });

  it('prints the baseline’s figures of the same rounds after this checkout’s', () => {
    const { lines, allMet } = scorecardLines([passing], [{ ...passing, webhooks: 3.2 }]);
    expect(allMet).toBe(true);
    expect(lines[0]).toContain('baseline, same rounds');
    const webhooks = lines.find((l) => l.startsWith('status webhooks ÷ undici'))!;
    expect(webhooks).toMatch(/1\.90× +1\/1 +3\.20×! +0\/1$/);
  });
});
