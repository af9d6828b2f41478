import { classifyDependencyFailure } from '../common/errors/dependency-errors';
import { DependencyUnavailableError } from '../common/errors/domain-error';
import { parseDatabaseUrl } from '../database/database-url';
import { NoPrimaryError } from '../database/primary-locator';
import { UsageError } from './cli-args';
import { EXIT } from './command';

/** Where the CLI connects (the configuration's URLs), to name an address it could not reach. */
export interface Dependencies {
  readonly databaseUrl: string;
  readonly redisUrl: string;
}

/**
 * How a command that threw is reported: the line after `error: ` on stderr and the exit code (EXIT). A
 * UsageError exits 2, everything else 1; PostgreSQL or Redis out of reach is said in one line naming the
 * host and port tried, never a password or a whole URL.
 */
export function cliFailure(err: unknown, dependencies?: Dependencies): { line: string; exitCode: number } {
  if (err instanceof UsageError) return { line: err.message, exitCode: EXIT.usage };
  return { line: (dependencies && unreachable(err, dependencies)) ?? messageOf(err), exitCode: EXIT.failed };
}

function unreachable(err: unknown, dependencies: Dependencies): string | null {
  // Its text already names every host and what each answered (a standby is reachable, just read-only).
  if (chain(err).some((e) => e instanceof NoPrimaryError)) return null;
  const which = err instanceof DependencyUnavailableError ? err.dependency : classifyDependencyFailure(err);
  if (which === 'redis') return `Redis at ${redisAddress(dependencies.redisUrl)} is not reachable`;
  if (which !== 'postgres') return null;
  const why = postgresReason(err);
  return `PostgreSQL at ${postgresAddress(dependencies.databaseUrl)} is not reachable${why ? ` (${why})` : ''}`;
}

/** `127.0.0.1:5432`, or each host of a failover list: never the user, password or database. */
export function postgresAddress(databaseUrl: string): string {
  try {
    return parseDatabaseUrl(databaseUrl)
      .hosts.map((h) => (h.host === '' ? 'the local socket' : `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`))
      .join(', ');
  } catch {
    return 'DATABASE_URL';
  }
}

export function redisAddress(redisUrl: string): string {
  try {
    const url = new URL(redisUrl);
    return `${url.hostname}:${url.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}

/** ECONNREFUSED, ENOTFOUND…; PostgreSQL's own words for a refusal (57P03: the database system is starting up); a timeout. */
function postgresReason(err: unknown): string {
  for (const e of chain(err)) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof message === 'string') return message;
    if (typeof message === 'string' && /timeout|timed out/i.test(message)) return 'timed out';
  }
  return '';
}

/** The error and what it wraps (TypeORM's driverError, a DependencyUnavailableError's cause). */
function chain(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let current = err; current && out.length < 4; current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause) {
    out.push(current);
  }
  return out;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
