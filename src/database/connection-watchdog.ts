import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client, type ClientConfig, DatabaseError, type Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { poolOf } from './typeorm-pool';

/** What the watchdog reads of one pooled connection. */
export interface WatchedConnection {
  /** The same object for the same connection on every look (the pg client). */
  readonly identity: object;
  /** The query the connection waits on, or null; a new object for each query. */
  readonly waitingOn: object | null;
  /** Bytes read from the server on this connection so far. */
  readonly bytesRead: number;
  /** host:port, where a check connects to. */
  readonly host: string;
}

interface Heard {
  waitingOn: object;
  bytesRead: number;
  since: number;
}

/**
 * Which connections have waited on one query for `silenceMs` or more with nothing read from the server
 * meanwhile. Sampled: a connection counts as silent from the first sample that saw its query and its byte
 * count as they still are.
 */
export class SilenceTracker {
  private readonly heard = new WeakMap<object, Heard>();

  constructor(private readonly silenceMs: number) {}

  silent<C extends WatchedConnection>(connections: readonly C[], now: number): C[] {
    const silent: C[] = [];
    for (const c of connections) {
      const waitingOn = c.waitingOn;
      if (!waitingOn) {
        this.heard.delete(c.identity);
        continue;
      }
      const last = this.heard.get(c.identity);
      if (!last || last.waitingOn !== waitingOn || last.bytesRead !== c.bytesRead) {
        this.heard.set(c.identity, { waitingOn, bytesRead: c.bytesRead, since: now });
      } else if (now - last.since >= this.silenceMs) {
        silent.push(c);
      }
    }
    return silent;
  }
}

/** Whether a host answered a new connection: any answer, an error from PostgreSQL included, means it is up. */
export type HostCheck = 'answers' | 'silent';

/**
 * Opens a new connection to the host of `like` and asks `SELECT 1`, within `timeoutMs` for each. A refusal
 * from PostgreSQL itself (too many connections, starting up, a bad password) is an answer; no answer in
 * time, a refused or reset TCP connection are not.
 */
export async function checkHost(like: ClientConfig, timeoutMs: number): Promise<HostCheck> {
  const client = new Client({ ...like, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, application_name: 'sms-watchdog' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'answers';
  } catch (err) {
    // An error PostgreSQL sent, as opposed to one of the socket or a timer.
    return err instanceof DatabaseError ? 'answers' : 'silent';
  } finally {
    // Ending a client whose connect or query is still out closes its socket.
    await client.end().catch(() => undefined);
  }
}

/** The pg client internals the watchdog reads; read against pg itself by test/e2e/database-silence. */
interface PgClientInternals {
  _getActiveQuery(): object | null;
  _queryQueue: object[];
  connection: { stream: { bytesRead: number; destroy(err: Error): void } };
  host: string;
  port: number;
  user?: string;
  database?: string;
  password?: ClientConfig['password'];
  ssl?: ClientConfig['ssl'];
}

/** One pooled pg client as the watchdog sees it. */
export class PooledConnection implements WatchedConnection {
  constructor(readonly client: PgClientInternals) {}

  get identity(): object {
    return this.client;
  }

  get waitingOn(): object | null {
    return this.client._getActiveQuery() ?? this.client._queryQueue[0] ?? null;
  }

  get bytesRead(): number {
    return this.client.connection.stream.bytesRead;
  }

  get host(): string {
    return `${this.client.host}:${this.client.port}`;
  }

  /** Connection settings for a check of the same host, as the same user on the same database. */
  checkConfig(): ClientConfig {
    const c = this.client;
    return { host: c.host, port: c.port, user: c.user, database: c.database, password: c.password, ssl: c.ssl };
  }

  /** Ends the connection: its queries fail with `err`, and the pool drops it. */
  end(err: Error): void {
    this.client.connection.stream.destroy(err);
  }
}

/** The error queries get on a connection ended by the watchdog: SQLSTATE 08006, answered 503. */
export class SilentHostError extends Error {
  readonly code = '08006';

  constructor(host: string, silentMs: number) {
    super(`Connection terminated: PostgreSQL at ${host} sent nothing for ${silentMs} ms and did not answer a new connection`);
    this.name = 'SilentHostError';
  }
}

function pooledConnections(pool: Pool): PooledConnection[] {
  const clients = (pool as unknown as { _clients: PgClientInternals[] })._clients;
  return clients.map((c) => new PooledConnection(c));
}

export interface SweeperOptions {
  /** How long a connection may wait on a query with nothing read before its host is checked; also the check's time limit. */
  silenceMs: number;
  connections(): PooledConnection[];
  check(like: ClientConfig, timeoutMs: number): Promise<HostCheck>;
  now(): number;
  /** Told before connections are ended. */
  onEnd(host: string, count: number): void;
}

/**
 * Finds connections silent for `silenceMs`, checks each of their hosts with one new connection, and ends
 * the silent connections of a host that does not answer it. A host that answers is checked again after
 * `silenceMs` at the earliest, while its connections stay silent.
 */
export class SilentConnectionSweeper {
  private readonly tracker: SilenceTracker;
  private readonly checking = new Set<string>();
  private readonly nextCheckAt = new Map<string, number>();

  constructor(private readonly options: SweeperOptions) {
    this.tracker = new SilenceTracker(options.silenceMs);
  }

  /** One look over the pool; resolves when its host checks (if any) are done. */
  async sweep(): Promise<void> {
    const now = this.options.now();
    const byHost = new Map<string, PooledConnection[]>();
    for (const c of this.tracker.silent(this.options.connections(), now)) {
      const onHost = byHost.get(c.host);
      if (onHost) onHost.push(c);
      else byHost.set(c.host, [c]);
    }
    await Promise.all([...byHost].map(([host, silent]) => this.checkThenEnd(host, silent, now)));
  }

  private async checkThenEnd(host: string, silent: PooledConnection[], sweptAt: number): Promise<void> {
    if (this.checking.has(host) || (this.nextCheckAt.get(host) ?? 0) > sweptAt) return;
    this.checking.add(host);
    const { silenceMs } = this.options;
    // Each connection as the check starts: only one still waiting on the same query with nothing read is ended.
    const seen = silent.map((c) => ({ c, waitingOn: c.waitingOn, bytesRead: c.bytesRead }));
    try {
      if ((await this.options.check(silent[0].checkConfig(), silenceMs)) === 'answers') {
        this.nextCheckAt.set(host, sweptAt + silenceMs);
        return;
      }
      this.nextCheckAt.delete(host);
      const stillSilent = seen.filter((s) => s.c.waitingOn === s.waitingOn && s.c.bytesRead === s.bytesRead);
      if (stillSilent.length === 0) return;
      this.options.onEnd(host, stillSilent.length);
      for (const s of stillSilent) s.c.end(new SilentHostError(host, silenceMs));
    } finally {
      this.checking.delete(host);
    }
  }
}

/**
 * A connection the server stops answering without a reset (a hung machine, a network dropping everything,
 * a primary cut off mid-failover) would hold its query, its request or job, and its pool slot until the
 * kernel gives up on the socket (about 15 minutes), or for good while the host's kernel still acknowledges.
 * Every DEPENDENCY_TIMEOUT_MS / 4, the watchdog looks for pooled connections that have waited
 * DEPENDENCY_TIMEOUT_MS on a query with nothing read; for each host they are on, it opens one new
 * connection (within DEPENDENCY_TIMEOUT_MS). If that gets no answer either, the silent connections are
 * ended, so their queries fail as the database being out of reach (503, a paused job) and the pool opens
 * new connections, to the new primary after a failover. A host that answers is only slow (a long
 * statement, a lock wait): its connections are left alone.
 */
@Injectable()
export class ConnectionWatchdog implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ConnectionWatchdog.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const silenceMs = this.config.dependencyTimeoutMs;
    const sweeper = new SilentConnectionSweeper({
      silenceMs,
      connections: () => pooledConnections(poolOf(this.dataSource)),
      check: checkHost,
      now: Date.now,
      onEnd: (host, count) =>
        this.logger.warn({
          msg: 'PostgreSQL sent nothing on these connections and did not answer a new one: ending them, so their work fails over instead of waiting',
          host,
          connections: count,
          silenceMs,
        }),
    });
    const sweep = () =>
      sweeper
        .sweep()
        .catch((err: unknown) => this.logger.error({ msg: 'the database connection watchdog failed a look; it looks again on its next turn', err: (err as Error).message }));
    this.timer = setInterval(() => void sweep(), Math.max(25, Math.floor(silenceMs / 4)));
    this.timer.unref();
  }

  /** At the end of shutdown, so the work drained before it (dispatchers, periodic work) is watched too. Its timer never keeps the process up. */
  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
