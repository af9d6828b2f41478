/**
 * DATABASE_URL as libpq reads it: one host or several (`postgres://u@h1:5432,h2:5432/sms?target_session_attrs=read-write`).
 * node-postgres takes one host per connection string, so the list is split here into one single-host URL
 * per host (same user, password, database and parameters); primary-locator.ts picks among them.
 */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';

/** The modes the service can use: it writes, so it never wants a standby (read-only, standby, prefer-standby). */
export const TARGET_SESSION_ATTRS: readonly TargetSessionAttrs[] = ['any', 'read-write', 'primary'];

export interface DatabaseHost {
  host: string;
  port: number;
}

export interface DatabaseUrl {
  hosts: DatabaseHost[];
  /** libpq's default is `any`; with several hosts and `any`, the first that answers is taken. */
  targetSessionAttrs: TargetSessionAttrs;
  /** The database name (URL path). */
  database: string;
  /** The URL for one of the hosts, without target_session_attrs (node-postgres does not know it). */
  forHost(host: DatabaseHost): string;
  /** The same URL list naming another database (the maintenance database, to create this one). */
  withDatabase(name: string): string;
}

const DEFAULT_PORT = 5432;
const SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;

export function parseDatabaseUrl(url: string): DatabaseUrl {
  const match = SHAPE.exec(url);
  if (!match) throw new Error('DATABASE_URL must be a postgres:// URL');
  const [, scheme, userinfo, hostList, path = '', query = ''] = match;
  const params = new URLSearchParams(query.slice(1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!TARGET_SESSION_ATTRS.includes(attrs as TargetSessionAttrs)) {
    throw new Error(`DATABASE_URL target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(', ')}`);
  }
  params.delete('target_session_attrs');
  const rest = params.toString();
  // An empty host list (a Unix socket named in ?host=) is passed through as it is.
  const hosts = hostList === '' ? [{ host: '', port: DEFAULT_PORT }] : hostList.split(',').map(parseHost);
  const prefix = `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}`;
  const suffix = (p: string) => `${p}${rest ? `?${rest}` : ''}`;
  const hostText = (h: DatabaseHost) => `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;
  return {
    hosts,
    targetSessionAttrs: attrs as TargetSessionAttrs,
    database: decodeURIComponent(path.replace(/^\//, '')),
    forHost: (h) => `${prefix}${hostText(h)}${suffix(path)}`,
    withDatabase: (name) => `${prefix}${hostList}${suffix(`/${encodeURIComponent(name)}`)}${attrs === 'any' ? '' : `${rest ? '&' : '?'}target_session_attrs=${attrs}`}`,
  };
}

function parseHost(text: string): DatabaseHost {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : DEFAULT_PORT };
  const plain = /^([^:]*)(?::(\d+))?$/.exec(text);
  if (!plain || !plain[1]) throw new Error('DATABASE_URL names a host it cannot read (host or host:port, comma separated)');
  return { host: decodeURIComponent(plain[1]), port: plain[2] ? Number(plain[2]) : DEFAULT_PORT };
}

/** One host and no session requirement: node-postgres takes the URL as it is. */
export function isPlainUrl(url: DatabaseUrl): boolean {
  return url.hosts.length === 1 && url.targetSessionAttrs === 'any';
}
