import fc from 'fast-check';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenApiValidator } from '../support/openapi-validator';
import { DEFAULT_KEY_ACCESS } from '../../src/accounts/api-key-access';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { ErrorText } from '../../src/common/errors/error-catalogue';
import { MAX_JSON_DEPTH } from '../../src/common/http/json-body-parser';
import { basicAuth, createAccount } from '../support/test-app';
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
  /** Requests by the limited keys: to an operation outside the key's scopes, and from outside its allow-list, each refused before the operation. */
  limitedKeys: { outOfScope: number; scopeRefused: number; fenced: number; addressRefused: number; capRefused: number };
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
  const limited = await limitedKeys(app, live.accountId);
  const limitedKeyCounts = { outOfScope: 0, scopeRefused: 0, fenced: 0, addressRefused: 0, capRefused: 0 };
  const statuses: Record<number, number> = {};
  let failure: FuzzReport['failure'];
  let ran = 0;

  const arbitrary = fc
    .constantFrom(...operations)
    .chain((op) => requestFor(op, document, { live: live.auth, test: test.auth, limited: limited.map((k) => k.auth) }).map((req) => ({ op, req })));
  const property = fc.asyncProperty(arbitrary, async ({ op, req }) => {
    const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.body });
    const problem = judge(op, req, res.statusCode, res.headers['content-type'], res.body, validator) ?? keyRule(op, req, res.statusCode, res.body, limited, limitedKeyCounts);
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
  return { cases: ran, seed: options.seed, operations: operations.length, statuses, limitedKeys: limitedKeyCounts, failure, elapsedMs: Date.now() - started };
}

interface LimitedKey {
  auth: string;
  scopes: readonly string[];
  /** Its allow-list leaves out the fuzzer's address (127.0.0.1): every request is refused. */
  fenced: boolean;
}

/** Keys of the live account: two with a few scopes, one fenced off by its allow-list, one capped at 3 messages a day. */
async function limitedKeys(app: NestFastifyApplication, accountId: number): Promise<LimitedKey[]> {
  const keys = app.get(ApiKeysService);
  const specs: Array<{ scopes?: string[]; allowedCidrs?: string[]; dailyMessageCap?: number }> = [
    { scopes: ['messages:read', 'contacts'] },
    { scopes: ['senders', 'webhooks', 'account'] },
    { allowedCidrs: ['203.0.113.0/24', '2001:db8::/32'] },
    { dailyMessageCap: 3 },
  ];
  const out: LimitedKey[] = [];
  for (const spec of specs) {
    const access = { ...DEFAULT_KEY_ACCESS, ...spec };
    const key = await keys.issue(accountId, 'fuzz limited', undefined, access);
    out.push({ auth: basicAuth(key.username, key.password), scopes: access.scopes, fenced: access.allowedCidrs.length > 0 });
  }
  return out;
}

/** What the body parser answers before any guard runs (a request it cannot read is refused the same for every key). */
const BEFORE_GUARDS = new Set<string>([
  ErrorText.invalidJson,
  ErrorText.bodyNotObject,
  ErrorText.bodyTooLarge,
  ErrorText.unsupportedMediaType,
  ErrorText.bodyTooDeep(MAX_JSON_DEPTH),
]);

/**
 * A limited key never gets past its limits: outside its allow-list every answer is the address refusal (or
 * a body the parser refused first); outside its scopes the scope refusal (purchases: the switch's text,
 * after the Idempotency-Key checks); a scope it holds is never refused as missing.
 */
function keyRule(op: Operation, req: FuzzRequest, status: number, text: string, limited: LimitedKey[], counts: FuzzReport['limitedKeys']): string | null {
  const key = limited.find((k) => k.auth === req.headers.authorization);
  const scope = op.operation['x-required-scope'] as string | undefined;
  if (!key || !scope) return null;
  const error = status >= 400 ? (JSON.parse(text) as { error: string }).error : undefined;
  const parserRefused = status === 400 || status === 413 || status === 415 ? BEFORE_GUARDS.has(error ?? '') : false;
  if (key.fenced) {
    counts.fenced++;
    if (error === ErrorText.apiKeyAddressRefused) counts.addressRefused++;
    else if (!parserRefused) return `a key outside its allow-list was answered ${status} ${text.slice(0, 200)}`;
    return null;
  }
  if (error === ErrorText.dailyMessageCapReached(3)) counts.capRefused++;
  const holds = scope === 'purchases' ? false : key.scopes.includes(scope);
  if (holds) return error?.startsWith('This API key does not have') ? `a key holding ${scope} was refused: ${error}` : null;
  counts.outOfScope++;
  const refusal = scope === 'purchases' ? ErrorText.purchasesNotEnabled : ErrorText.apiKeyScopeMissing(scope);
  if (error === refusal) {
    counts.scopeRefused++;
    return null;
  }
  if (parserRefused || (scope === 'purchases' && status === 400 && /^Idempotency-Key/.test(error ?? ''))) return null;
  return `a key without ${scope} was answered ${status} ${text.slice(0, 200)}`;
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
