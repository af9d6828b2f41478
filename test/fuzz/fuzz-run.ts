import fc from 'fast-check';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenApiValidator } from '../support/openapi-validator';
import { createAccount } from '../support/test-app';
import { addCard, enablePurchases } from '../support/purchases';
import { FuzzRequest, Operation, operationsOf, requestFor } from './openapi-requests';

export interface FuzzOptions {
  cases: number;
  seed: number;
  /** Progress lines (every 10%); silent when absent. */
  log?: (line: string) => void;
}

export interface FuzzReport {
  cases: number;
  seed: number;
  operations: number;
  /** Answers per status over the run. */
  statuses: Record<number, number>;
  /** Set when a case broke a rule: what, and the request as a curl line. */
  failure?: { reason: string; curl: string };
  elapsedMs: number;
}

class RuleBroken extends Error {}

/** The request as a curl line against a local instance; bodies with bytes a shell mangles go through base64. */
export function asCurl(req: FuzzRequest, base = 'http://localhost:3000'): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(req.headers).map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`);
  const target = `curl -sS -i -X ${req.method} ${quote(base + req.url)} ${headers.join(' ')}`.trim();
  if (req.body === undefined) return target;

  if (/^[\x20-\x7e]*$/.test(req.body)) return `${target} --data-binary ${quote(req.body)}`;
  return `printf %s ${quote(Buffer.from(req.body, 'utf8').toString('base64'))} | base64 -d | ${target} --data-binary @-`;
}

/**
 * Property: for every operation of the served document and any request shaped by it (and bent), the
 * answer is never a 5xx, is a status the document lists for that operation, is the `{"error": "..."}`
 * envelope when it is an error and matches the documented schema when it is not; and the process stays
 * healthy (checked every 500 cases and at the end, with no in-flight slot leaked).
 */
export async function fuzzApi(app: NestFastifyApplication, options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const validator = new OpenApiValidator(document);
  const operations = operationsOf(document);
  const live = await createAccount(app, { credits: 1_000_000, senders: ['Brand', '61412345678'] });
  const test = await createAccount(app, { test: true, senders: ['Brand'] });
  // Purchases reach their parsing, card choice, daily limit and charge: the switch on and a card saved.
  await enablePurchases(app, live);
  await addCard(app, live.accountId);
  const statuses: Record<number, number> = {};
  let failure: FuzzReport['failure'];
  let ran = 0;

  const arbitrary = fc.constantFrom(...operations).chain((op) => requestFor(op, document, { live: live.auth, test: test.auth }).map((req) => ({ op, req })));
  const property = fc.asyncProperty(arbitrary, async ({ op, req }) => {
    const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.body });
    const problem = judge(op, req, res.statusCode, res.headers['content-type'], res.body, validator);
    if (problem) {
      failure = { reason: `${req.operation} answered ${res.statusCode} ${res.body.slice(0, 300)}: ${problem}`, curl: asCurl(req) };
      throw new RuleBroken(failure.reason);
    }
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (++ran % 500 === 0) await healthy(app);
    if (options.log && ran % Math.max(1, Math.floor(options.cases / 10)) === 0) options.log(`${ran}/${options.cases} cases, ${Math.round((Date.now() - started) / 1000)} s`);
  });
  try {
    await fc.assert(property, { numRuns: options.cases, seed: options.seed, endOnFailure: true });
    await healthy(app);
    await noSlotLeaked(app, live.auth);
  } catch (err) {
    failure ??= { reason: (err as Error).message, curl: '' };
  }
  return { cases: ran, seed: options.seed, operations: operations.length, statuses, failure, elapsedMs: Date.now() - started };
}

function judge(op: Operation, req: FuzzRequest, status: number, contentType: unknown, text: string, validator: OpenApiValidator): string | null {
  if (status >= 500) return 'a 5xx';
  if (!op.statuses.has(status)) return `status ${status} is not documented for ${op.method} ${op.path}`;
  const isJson = typeof contentType === 'string' && contentType.startsWith('application/json');
  if (status >= 400) {
    if (!isJson) return 'an error without a JSON content type';
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return 'an error body that is not JSON';
    }
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    if (keys.length !== 1 || typeof (body as { error?: unknown }).error !== 'string' || (body as { error: string }).error === '') return 'an error outside the envelope';
    return null;
  }
  if (!isJson) return null; // /metrics, documented as text
  return validator.check(req.method, req.url, status, JSON.parse(text));
}

async function healthy(app: NestFastifyApplication): Promise<void> {
  const res = await app.inject({ method: 'GET', url: '/health' });
  if (res.statusCode !== 200) throw new RuleBroken(`GET /health answered ${res.statusCode} ${res.body}`);
}

/** Five requests at once all pass: no request of the run kept one of the account's in-flight slots. */
async function noSlotLeaked(app: NestFastifyApplication, auth: string): Promise<void> {
  const answers = await Promise.all(Array.from({ length: 5 }, () => app.inject({ method: 'GET', url: '/v1/account', headers: { authorization: auth } })));
  const codes = answers.map((a) => a.statusCode);
  if (codes.some((c) => c !== 200)) throw new RuleBroken(`after the run, five concurrent requests answered ${codes.join(', ')}`);
}
