import { DataSource } from 'typeorm';
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { UserLinksService } from '../src/users/user-links.service';
import { UsersService } from '../src/users/users.service';
import { ms, stats } from './support';

/** bench:scale's measurements: request latencies over real HTTP, a signed-in dashboard session, CLI runs. */

export interface Figure {
  what: string;
  p50: number;
  p99: number;
  max: number;
  n: number;
  note?: string;
}

/**
 * `samples` sequential GETs of the paths (taken in turn), after `warm` unmeasured ones: p50/p99/max in ms.
 * Each answer must be `expect` (200 unless said), so a figure is never the time of an error.
 */
export async function probe(
  what: string,
  base: string,
  headers: Record<string, string>,
  paths: string[],
  samples: number,
  options: { warm?: number; expect?: number; note?: string } = {},
): Promise<Figure> {
  const once = async (p: string) => {
    const s = process.hrtime.bigint();
    const res = await fetch(`${base}${p}`, { headers, redirect: 'manual' });
    await res.arrayBuffer();
    const took = ms(s);
    if (res.status !== (options.expect ?? 200)) throw new Error(`${what}: GET ${p} answered ${res.status}`);
    return took;
  };
  for (let i = 0; i < (options.warm ?? 5); i++) await once(paths[i % paths.length]);
  const took: number[] = [];
  for (let i = 0; i < samples; i++) took.push(await once(paths[i % paths.length]));
  const s = stats(took);
  return { what, p50: s.p50, p99: s.p99, max: s.max, n: samples, note: options.note };
}

/** A user who owns the account, signed in over HTTP: the Cookie header of their session. */
export async function dashboardSession(app: NestFastifyApplication, base: string, accountId: number): Promise<Record<string, string>> {
  const email = `owner.${process.pid}@example.com.au`;
  const password = 'correct horse battery staple';
  // A database measured again (--reuse) still has the owner an earlier run made: one owner per account.
  await app.get(DataSource).query(`DELETE FROM users WHERE account_id = $1 AND email LIKE 'owner.%@example.com.au'`, [accountId]);
  const { link } = await app.get(UsersService).createByOperator(accountId, { email, owner: true });
  await app.get(UserLinksService).setPassword(link.split('/').pop()!, password, password, '127.0.0.1');
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const form = await fetch(`${base}/sign-in`, { headers: { accept: 'text/html' } });
  keep(form);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${base}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { accept: 'text/html', cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
  });
  keep(res);
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`dashboard sign-in answered ${res.status}`);
  return { accept: 'text/html', cookie: cookie() };
}

/** Wall time of `runs` runs of an operator command (node dist/src/cli.js …) on the database; each must exit 0. */
export async function cliRuns(what: string, databaseUrl: string, args: string[], runs: number, note?: string): Promise<Figure> {
  const cli = path.resolve(__dirname, '../src/cli.js');
  const took: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [cli, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`)) : resolve(),
      ),
    );
    took.push(ms(s));
  }
  const s = stats(took);
  return { what, p50: s.p50, p99: s.p99, max: s.max, n: runs, note };
}

export function figureLine(f: Figure, goal = ''): string {
  const n = (v: number) => (v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : Math.round(v).toString());
  return `  ${f.what.padEnd(48)} p50 ${n(f.p50).padStart(8)} ms  p99 ${n(f.p99).padStart(8)} ms  (n=${f.n}${f.note ? `; ${f.note}` : ''})${goal ? `  ${goal}` : ''}`;
}

/** "goal p99 ≤ 20 ms: met" / "… MISSED". */
export function goal(f: Figure, limitMs: number): string {
  return `goal p99 ≤ ${limitMs} ms: ${f.p99 <= limitMs ? 'met' : 'MISSED'}`;
}
