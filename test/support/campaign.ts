import { Pool } from 'pg';
import { runCli } from './run-cli';
import { basicAuth } from './test-app';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../../src/delivery/state/message-status';
import { pgConnectionOptions } from '../../src/database/primary-locator';

/** What multi-process tests share: a live account made by the CLI, HTTP calls to a process, the file's database. */
export interface LiveAccount {
  accountId: number;
  auth: string;
}

export async function liveAccount(credits: number, sender = 'Brand'): Promise<LiveAccount> {
  const res = await runCli('account:create', '--name', `Campaigns ${process.pid}-${Date.now()}`, '--credits', String(credits), '--sender', sender);
  if (res.code !== 0) throw new Error(`account:create failed: ${res.stderr}`);
  return { accountId: res.json.account_id, auth: basicAuth(res.json.api_username, res.json.api_password) };
}

export interface HttpAnswer {
  status: number;
  body: any;
}

/** Far above any answer the chaos tests wait for (a 10000-message POST under load takes seconds). */
const CALL_TIMEOUT_MS = 60_000;

export async function call(baseUrl: string, method: string, path: string, auth: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const res = await fetch(`${baseUrl}${path}`, {
    // A request the service never answers (a hang) fails the test here instead of holding it to the end.
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * POST /v1/messages as a careful client does on a machine under load: with an Idempotency-Key, retried
 * with the same key while the answer is 503 (PostgreSQL slower than DEPENDENCY_TIMEOUT_MS), so it is
 * accepted at most once.
 */
export async function sendRetrying(baseUrl: string, auth: string, body: unknown, attempts = 4): Promise<HttpAnswer> {
  const key = `campaign-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  for (let attempt = 1; ; attempt++) {
    const answer = await call(baseUrl, 'POST', '/v1/messages', auth, body, { 'idempotency-key': key });
    if (answer.status !== 503 || attempt >= attempts) return answer;
  }
}

/** `count` distinct Australian mobiles `04{block}{i:5}{1}`; none ends in 000 (the simulator's failing numbers). */
export function mobiles(block: string, count: number, from = 0): string[] {
  if (!/^\d{2}$/.test(block)) throw new Error('block is two digits');
  return Array.from({ length: count }, (_, i) => `04${block}${String(from + i).padStart(5, '0')}1`);
}

/** The international form the carrier submits (and the simulator records). */
export const international = (local: string) => `61${local.slice(1)}`;

/** The file's database, through the service's own connection options (a multi-host URL finds its primary). */
export function database(): Pool {
  const pool = new Pool({ ...pgConnectionOptions(process.env.DATABASE_URL!, 5000), max: 4 });
  // An idle connection lost with its server (a failover) is dropped and replaced, not a crash of the test.
  pool.on('error', () => undefined);
  return pool;
}

export async function statusCounts(db: Pool, accountId: number): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: number }>(
    `SELECT ${MESSAGE_STATUS} AS status, count(*)::int AS n FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 GROUP BY 1`,
    [accountId],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Runs `cli compliance:verify` for one account (or all) and returns its report and exit code. */
export async function complianceVerify(accountId?: number): Promise<{ code: number; report: { ok: boolean; violations: unknown[] }; stderr: string }> {
  const res = await runCli('compliance:verify', ...(accountId ? ['--account', String(accountId)] : []));
  return { code: res.code, report: res.json, stderr: res.stderr };
}

/** Runs `cli ledger:verify` for one account (or all) and returns its report and exit code. */
export async function ledgerVerify(accountId?: number): Promise<{ code: number; report: { ok: boolean; violations: unknown[] }; stderr: string }> {
  const res = await runCli('ledger:verify', ...(accountId ? ['--account', String(accountId)] : []));
  return { code: res.code, report: res.json, stderr: res.stderr };
}
