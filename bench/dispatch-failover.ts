import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { PARTS_STATUS } from '../src/delivery/state/message-status';
import { fmt } from './support';

/**
 * bench:dispatch --carriers N --kill-one-at T: what the loss of carrier-1 did, from the simulators'
 * journals (each accepted submit_sm, written before it was answered) and the database.
 */

/** One accepted submit_sm: epoch ms, and the part as destination/part number. */
export interface JournalEntry {
  at: number;
  part: string;
}

export function readJournal(file: string): JournalEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [at, destination, part] = line.split(' ');
      return { at: Number(at), part: `${destination}/${part}` };
    });
}

/**
 * The campaign's messages by settled state: delivered, failed, or sent (every part recorded and none
 * still waiting for a receipt: its wait closed, `unconfirmed`); else unsettled (a part missing or still
 * `submitted`), or no part recorded at all.
 */
export async function classifyCampaign(ds: DataSource, accountId: number, startEpoch: number): Promise<Map<string, number>> {
  const rows: Array<{ state: string; n: number }> = await ds.query(
    `SELECT coalesce(parts.state, 'no part recorded') AS state, count(*)::int AS n FROM messages m
       LEFT JOIN LATERAL (
         SELECT CASE WHEN count(*) < max(p.total_parts) OR bool_or(p.status = 'submitted') THEN 'unsettled' ELSE ${PARTS_STATUS} END AS state
           FROM message_parts p WHERE p.message_id = m.id HAVING count(*) > 0
       ) parts ON true
      WHERE m.account_id = $1 AND m.created_at >= to_timestamp($2 / 1000.0)
      GROUP BY 1`,
    [accountId, startEpoch],
  );
  return new Map(rows.map((r) => [r.state, r.n]));
}

const BUCKET_MS = 250;
/** The survivors carry "the whole rate" once a bucket's rate is this share of the combined rate before the loss. */
const WHOLE_RATE_SHARE = 0.8;

export interface FailoverInput {
  ds: DataSource;
  accountId: number;
  startEpoch: number;
  total: number;
  killedAt: number;
  /** Journal of each carrier's simulator; [0] is the killed one's. */
  entries: JournalEntry[][];
  /** Parts the killed carrier could hold unanswered: binds (of every worker) × window. */
  bound: number;
  names: string[];
}

/** Prints the loss's figures and checks; false when a message is unsettled or lost, or duplicates pass the bound. */
export async function failoverReport(f: FailoverInput): Promise<boolean> {
  const { killedAt: k, entries } = f;
  const [killed, ...survivors] = entries;
  const survivorAll = survivors.flat().sort((a, b) => a.at - b.at);
  const first = Math.min(...entries.map((e) => e[0]?.at ?? Infinity));
  const last = Math.max(...entries.map((e) => e.at(-1)?.at ?? -Infinity));

  // Before: the combined rate from the first submit to the loss (a window shorter than that swings with the
  // dispatcher's batches on a loaded machine).
  const beforeFrom = first;
  const before = k > beforeFrom ? entries.flat().filter((e) => e.at >= beforeFrom && e.at < k).length / ((k - beforeFrom) / 1000) : 0;
  const afterEntries = survivorAll.filter((e) => e.at >= k);
  const after = afterEntries.length / Math.max(0.001, (last - k) / 1000);
  const killedAfter = killed.filter((e) => e.at >= k).length;

  // The first whole bucket after the kill in which the killed carrier accepted nothing and the survivors
  // accepted at least WHOLE_RATE_SHARE of the combined rate before the loss.
  let carried: number | null = null;
  const rates: string[] = [];
  for (let b = k; b + BUCKET_MS <= last; b += BUCKET_MS) {
    const inBucket = (e: JournalEntry) => e.at >= b && e.at < b + BUCKET_MS;
    const rate = (survivorAll.filter(inBucket).length * 1000) / BUCKET_MS;
    if (rates.length < 16) rates.push(String(Math.round(rate)));
    if (carried === null && killed.filter(inBucket).length === 0 && rate >= WHOLE_RATE_SHARE * before) carried = b + BUCKET_MS - k;
  }

  const killedParts = new Set(killed.map((e) => e.part));
  const seen = new Map<string, number>();
  for (const e of survivorAll) seen.set(e.part, (seen.get(e.part) ?? 0) + 1);
  const acrossCarriers = [...seen.keys()].filter((p) => killedParts.has(p)).length;
  const atOneSurvivorTwice = [...seen.values()].filter((n) => n > 1).length;
  const duplicates = acrossCarriers + atOneSurvivorTwice;

  const states = await classifyCampaign(f.ds, f.accountId, f.startEpoch);
  const settled = (states.get('delivered') ?? 0) + (states.get('failed') ?? 0) + (states.get('sent') ?? 0);
  const destinations: Array<{ to: string; parts: number }> = await f.ds.query(
    `SELECT to_number AS to, parts FROM messages WHERE account_id = $1 AND created_at >= to_timestamp($2 / 1000.0)`,
    [f.accountId, f.startEpoch],
  );
  const reachedNoPeer = destinations.filter((m) => !Array.from({ length: m.parts }, (_, i) => `${m.to}/${i + 1}`).every((p) => seen.has(p) || killedParts.has(p))).length;
  const byCarrier: Array<{ carrier: string; status: string; n: number }> = await f.ds.query(
    `SELECT c.name AS carrier, p.status, count(*)::int AS n FROM messages m JOIN message_parts p ON p.message_id = m.id JOIN carriers c ON c.id = p.carrier_id
      WHERE m.account_id = $1 AND m.created_at >= to_timestamp($2 / 1000.0) GROUP BY 1, 2 ORDER BY 1, 2`,
    [f.accountId, f.startEpoch],
  );
  const unsettled = states.get('unsettled') ?? 0;
  const lost = (states.get('no part recorded') ?? 0) + reachedNoPeer;

  const s = (ms: number) => `${fmt(ms / 1000)} s`;
  console.log(
    `  loss of ${f.names[0]}: SIGKILL at ${s(k - f.startEpoch)} into the campaign, ${s(k - first)} after the first submit_sm at a peer (the last at ${s(last - f.startEpoch)})`,
  );
  if (k >= last) console.log(`    the campaign was over at the peers before the kill: nothing to fail over (a shorter --kill-one-at or more --messages)`);
  console.log(`    rate before the loss               ${Math.round(before)} messages/s (both carriers, from the first submit_sm to the kill: ${s(k - beforeFrom)})`);
  console.log(`    rate after the loss                ${Math.round(after)} messages/s (${afterEntries.length} at the survivor(s) from the kill to the last submit)`);
  console.log(`    survivors per ${BUCKET_MS} ms after it    ${rates.join(' ')}${rates.length === 16 ? ' …' : ''} messages/s`);
  console.log(
    `    whole rate carried after           ${carried === null ? 'not within the campaign' : `${carried} ms`} (first ${BUCKET_MS} ms bucket after the kill with nothing at ${f.names[0]} and the survivors at ≥ ${WHOLE_RATE_SHARE * 100}% of the rate before)`,
  );
  console.log(`    accepted by ${f.names[0]} after the kill  ${killedAfter}`);
  console.log(
    `    duplicates at the peers            ${duplicates} (${acrossCarriers} parts accepted by ${f.names[0]} and a survivor, ${atOneSurvivorTwice} twice at one survivor); bound: binds × window of the dead carrier = ${f.bound}`,
  );
  console.log(
    `    settled in the database            ${settled} of ${f.total}: ${states.get('delivered') ?? 0} delivered, ${states.get('failed') ?? 0} failed, ${states.get('sent') ?? 0} sent with the receipt wait closed`,
  );
  console.log(
    `    unsettled / lost                   ${unsettled} unsettled, ${lost} lost (${states.get('no part recorded') ?? 0} with no part recorded, ${reachedNoPeer} reaching no peer)`,
  );
  console.log(`    parts by carrier and status        ${byCarrier.map((r) => `${r.carrier} ${r.status} ${r.n}`).join(', ')}`);
  const ok = unsettled === 0 && lost === 0 && settled === f.total && duplicates <= f.bound;
  if (!ok) console.log(`  FAILED: ${unsettled} unsettled, ${lost} lost, ${settled} of ${f.total} settled, ${duplicates} duplicates (bound ${f.bound})`);
  return ok;
}
