/**
 * The hot paths' aims (docs/performance.md, "Every hot path beside its floor") and how bench:scorecard
 * judges a sitting's runs against them: every run must meet every aim.
 */
/** The scorecard's parts: each is one benchmark run (the campaign: Kannel's and ours). */
export type Part = 'campaign' | 'webhooks' | 'links' | 'send';
export const PARTS: readonly Part[] = ['campaign', 'webhooks', 'links', 'send'];

export interface Aim {
  /** The figure's name in a round (roundFigures). */
  key: string;
  part: Part;
  label: string;
  direction: 'atLeast' | 'atMost';
  bound: number;
  unit: '×' | ' ms';
}

export const AIMS: readonly Aim[] = [
  { key: 'campaign', part: 'campaign', label: 'campaign rate ÷ lean Kannel without receipts', direction: 'atLeast', bound: 1, unit: '×' },
  { key: 'probeP99Ms', part: 'campaign', label: 'GET /v1/account p99 during the campaign', direction: 'atMost', bound: 250, unit: ' ms' },
  { key: 'webhooks', part: 'webhooks', label: 'status webhooks ÷ undici Pool floor', direction: 'atMost', bound: 2, unit: '×' },
  { key: 'links', part: 'links', label: 'redirects: bare Fastify floor rate ÷ product rate', direction: 'atMost', bound: 2, unit: '×' },
  { key: 'post', part: 'send', label: 'POST /v1/messages p50 ÷ INSERT … unnest floor', direction: 'atMost', bound: 1.5, unit: '×' },
  { key: 'listSend', part: 'send', label: 'list-send p50 ÷ set-based insert floor', direction: 'atMost', bound: 2, unit: '×' },
];

/**
 * Printed beside the aims, judged by none: webhooks against the floor that also stores every event and logs
 * every attempt, that durable floor against the plain one (the least a webhook ratio can be), the webhooks'
 * delivery alone (from the events' commit) against the plain floor, and the sends
 * against their COPY floors.
 */
export const ALSO_SHOWN: ReadonlyArray<{ key: string; part: Part; label: string }> = [
  { key: 'webhooksDurable', part: 'webhooks', label: 'status webhooks ÷ durable floor (with the database)' },
  // The time from the events' commit to the last delivery (the aim's time less storing them) over the same floor.
  { key: 'webhooksAfterStored', part: 'webhooks', label: 'status webhooks once stored ÷ undici Pool floor' },
  // The durable floor's own ratio to the undici Pool floor: no deliverer that stores and logs every event is below it.
  { key: 'durableOverFloor', part: 'webhooks', label: 'durable floor ÷ undici Pool floor (no deliverer below)' },
  { key: 'postCopy', part: 'send', label: 'POST /v1/messages p50 ÷ COPY floor' },
  { key: 'listSendCopy', part: 'send', label: 'list-send p50 ÷ COPY floor' },
];

/** One round's figures by key; a figure is missing when its benchmark failed or was not run. */
export type Round = Partial<Record<string, number>>;

/** What each benchmark wrote to its result file (bench-result.ts). */
export interface BenchResults {
  kannel?: Record<string, number>;
  dispatch?: Record<string, number>;
  webhooks?: Record<string, number>;
  links?: Record<string, number>;
  send?: Record<string, number>;
}

/**
 * The same figures read from a benchmark's printed lines: for a --baseline checkout from before the
 * benchmarks wrote result files (the lines have kept these words). Figures not found are left out.
 */
const PRINTED: Record<keyof BenchResults, Array<[string, RegExp]>> = {
  kannel: [['sustained', /sustained at the peer\s+(\d+) messages\/s/]],
  dispatch: [
    ['sustained', /sustained at the peer\s+(\d+) messages\/s/],
    ['probeP99Ms', /GET \/v1\/account during the run\s+p50 [\d.]+ ms, p99 ([\d.]+) ms/],
  ],
  webhooks: [
    ['ratio', /run 1 \/ floor = ([\d.]+)×/],
    ['durableRatio', /run 1 \/ durable floor = ([\d.]+)×/],
    ['afterStoredRatio', /run 1 once stored \/ floor = ([\d.]+)×/],
  ],
  links: [['ratio', /floor rate \/ product rate = ([\d.]+)×/]],
  send: [
    ['post', /API p50 \/ floor p50 = ([\d.]+)×/],
    ['postCopy', /API p50 \/ COPY floor p50 = ([\d.]+)×/],
    ['listSend', /list-send p50 \/ floor p50 = ([\d.]+)×/],
    ['listSendCopy', /list-send p50 \/ COPY floor p50 = ([\d.]+)×/],
  ],
};

export function figuresFromOutput(bench: keyof BenchResults, output: string): Record<string, number> | undefined {
  const figures: Record<string, number> = {};
  for (const [key, pattern] of PRINTED[bench]) {
    const match = pattern.exec(output);
    if (match) figures[key] = Number(match[1]);
  }
  return Object.keys(figures).length ? figures : undefined;
}

export function roundFigures(results: BenchResults): Round {
  const round: Round = {};
  const { kannel, dispatch, webhooks, links, send } = results;
  if (kannel?.sustained && dispatch?.sustained !== undefined) round.campaign = dispatch.sustained / kannel.sustained;
  if (dispatch?.probeP99Ms !== undefined) round.probeP99Ms = dispatch.probeP99Ms;
  if (webhooks?.ratio !== undefined) round.webhooks = webhooks.ratio;
  if (webhooks?.afterStoredRatio !== undefined) round.webhooksAfterStored = webhooks.afterStoredRatio;
  if (webhooks?.durableRatio !== undefined) {
    round.webhooksDurable = webhooks.durableRatio;
    // Both ratios have the product's time above them: their quotient is the durable floor's time over the plain floor's.
    if (webhooks.ratio !== undefined && webhooks.durableRatio > 0) round.durableOverFloor = webhooks.ratio / webhooks.durableRatio;
  }
  if (links?.ratio !== undefined) round.links = links.ratio;
  for (const key of ['post', 'postCopy', 'listSend', 'listSendCopy']) if (send?.[key] !== undefined) round[key] = send[key];
  return round;
}

/**
 * A missing or non-finite figure meets no aim. A figure is judged as the scorecard shows it (a ratio to two
 * decimals, milliseconds whole): a baseline's figures read from printed lines come rounded, and both
 * checkouts are judged alike.
 */
export function meets(aim: Aim, value: number | undefined): boolean {
  if (value === undefined || !Number.isFinite(value)) return false;
  const shown = asShown(value, aim.unit);
  return aim.direction === 'atLeast' ? shown >= aim.bound : shown <= aim.bound;
}

function asShown(value: number, unit: string): number {
  return unit === ' ms' ? Math.round(value) : Math.round(value * 100) / 100;
}

function show(value: number | undefined, unit: string): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return unit === ' ms' ? `${Math.round(value)}${unit}` : `${value.toFixed(2)}${unit}`;
}

/**
 * The scorecard of the parts run: each of their aims with its figure in every round (a `!` marks a miss)
 * and how many rounds met it; with `baseline`, the other checkout's figures of the same rounds after
 * them. `allMet`: this checkout met every aim of those parts in every round (and there was a round).
 */
export function scorecardLines(rounds: Round[], baseline?: Round[], parts: readonly Part[] = PARTS): { lines: string[]; allMet: boolean } {
  const aims = AIMS.filter((a) => parts.includes(a.part));
  const alsoShown = ALSO_SHOWN.filter((a) => parts.includes(a.part));
  const width = Math.max(...AIMS.map((a) => a.label.length + 8), ...ALSO_SHOWN.map((a) => a.label.length));
  const thisHeading = 'this checkout, round by round';
  // Cells are 10 wide; with one or two rounds the headings are wider than their columns.
  const cellWidth = Math.max(10, Math.ceil(thisHeading.length / Math.max(1, rounds.length)));
  const cells = (values: Array<number | undefined>, aim?: Aim) => values.map((v) => (show(v, aim?.unit ?? '×') + (aim && !meets(aim, v) ? '!' : ' ')).padStart(cellWidth)).join('');
  const lines = [`${'aim'.padEnd(width)}  ${thisHeading.padEnd(cellWidth * rounds.length)}  met${baseline ? `  baseline, same rounds` : ''}`];
  let allMet = rounds.length > 0;
  for (const aim of aims) {
    const values = rounds.map((r) => r[aim.key]);
    const met = values.filter((v) => meets(aim, v)).length;
    if (met < rounds.length) allMet = false;
    const bound = `(${aim.direction === 'atLeast' ? '≥' : '≤'} ${aim.bound}${aim.unit})`;
    let line = `${`${aim.label} ${bound}`.padEnd(width)}  ${cells(values, aim)}  ${`${met}/${rounds.length}`.padStart(3)}`;
    if (baseline) {
      const before = baseline.map((r) => r[aim.key]);
      line += `  ${cells(before, aim)}  ${before.filter((v) => meets(aim, v)).length}/${baseline.length}`;
    }
    lines.push(line);
  }
  for (const extra of alsoShown) {
    let line = `${extra.label.padEnd(width)}  ${cells(rounds.map((r) => r[extra.key]))}`;
    if (baseline) line += `       ${cells(baseline.map((r) => r[extra.key]))}`;
    lines.push(line);
  }
  lines.push(allMet ? `every aim met in all ${rounds.length} rounds` : `not every aim met in every round ('!' marks each miss)`);
  return { lines, allMet };
}
