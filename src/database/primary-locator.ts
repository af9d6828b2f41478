import { Client, ClientConfig } from 'pg';
import { DatabaseHost, DatabaseUrl, isPlainUrl, parseDatabaseUrl, TargetSessionAttrs } from './database-url';
import { HeardClient } from './heard-client';

/**
 * node-postgres connects to one host, and has no target_session_attrs (libpq's multi-host failover). With
 * several hosts in DATABASE_URL (a pg_auto_failover formation's URL), every connection of every pool is made
 * by PrimaryClient: it connects to the host the locator last found accepting the session the URL asks for
 * (read-write: not in recovery and not default read-only), and checks the session it got. When that host is
 * gone or has become a standby, the connection fails as PostgreSQL being out of reach (503 to the request,
 * a pause for a worker) and the locator forgets it; the next connection tries the hosts again in their order,
 * those it could not reach since they last accepted a session after the others.
 * Connections already open to a primary that dies end with it, and the pool replaces them the same way.
 */
export class PrimaryLocator {
  private current: DatabaseHost | undefined;
  private probing: Promise<DatabaseHost> | undefined;
  /** Hosts a connection failed to reach since they last accepted a session: searched after the others. */
  private readonly failed = new Set<DatabaseHost>();

  constructor(
    readonly url: DatabaseUrl,
    private readonly connectTimeoutMs: number,
  ) {}

  /** The host to connect to: the one found last, or the first in order that accepts the session. */
  locate(): Promise<DatabaseHost> {
    if (this.current) return Promise.resolve(this.current);
    // Concurrent connections (a pool filling up) share one search.
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** This host's session is gone or was of the wrong kind: look again next time. */
  forget(host: DatabaseHost): void {
    if (this.current === host) this.current = undefined;
  }

  /** A connection to this host failed: look again next time, trying it after the others. */
  unreachable(host: DatabaseHost): void {
    this.forget(host);
    this.failed.add(host);
  }

  /**
   * The URL's order, except that hosts which failed since they last accepted a session go last: after a
   * failover away from a hung first host, each search would otherwise wait the connect timeout on it first.
   */
  private searchOrder(): DatabaseHost[] {
    const hosts = this.url.hosts;
    return [...hosts.filter((h) => !this.failed.has(h)), ...hosts.filter((h) => this.failed.has(h))];
  }

  private async probe(): Promise<DatabaseHost> {
    const seen: string[] = [];
    for (const host of this.searchOrder()) {
      // The check's query is timed too: a host that starts the session and then answers nothing (a machine
      // hung, a network dropping everything) would otherwise hold this search, and every connection of the
      // pool waiting on it, for good. Ending a client whose query is still out closes its socket.
      const client = new Client({
        connectionString: this.url.forHost(host),
        connectionTimeoutMillis: this.connectTimeoutMs,
        query_timeout: this.connectTimeoutMs,
        application_name: 'sms-locate',
      });
      // A probe that fails after connecting must not crash the process with an unhandled 'error'.
      client.on('error', () => undefined);
      try {
        await client.connect();
        if (await acceptsSession(client, this.url.targetSessionAttrs, new Map())) {
          this.current = host;
          this.failed.delete(host);
          return host;
        }
        // Up, but a standby: not a failure.
        seen.push(`${host.host}:${host.port} is read-only`);
      } catch (err) {
        this.failed.add(host);
        seen.push(`${host.host}:${host.port} ${(err as { code?: string }).code ?? (err as Error).message}`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    throw new NoPrimaryError(this.url.targetSessionAttrs, seen);
  }
}

/**
 * No listed host accepts the session (a failover under way, or every host down). SQLSTATE 08001
 * (unable to establish a connection) so it is classified with the other connection failures: 503.
 */
export class NoPrimaryError extends Error {
  readonly code = '08001';

  constructor(attrs: TargetSessionAttrs, seen: string[]) {
    super(`no host in DATABASE_URL accepts ${attrs} sessions (${seen.join('; ')})`);
    this.name = 'NoPrimaryError';
  }
}

/**
 * Whether the session is what target_session_attrs asks. PostgreSQL 14 and later report in_hot_standby and
 * default_transaction_read_only when the session starts (so no query is needed); before 14, one query.
 */
async function acceptsSession(client: Client, attrs: TargetSessionAttrs, reported: Map<string, string>): Promise<boolean> {
  if (attrs === 'any') return true;
  let standby = reported.get('in_hot_standby');
  let readOnly = reported.get('default_transaction_read_only');
  if (standby === undefined || readOnly === undefined) {
    const { rows } = await client.query<{ standby: string; read_only: string }>(
      `SELECT CASE WHEN pg_is_in_recovery() THEN 'on' ELSE 'off' END AS standby, current_setting('transaction_read_only') AS read_only`,
    );
    standby = rows[0].standby;
    readOnly = rows[0].read_only;
  }
  return standby === 'off' && (attrs === 'primary' || readOnly === 'off');
}

type ConnectCallback = (err: Error | undefined, client?: Client) => void;

/** A node-postgres Client that connects where the locator says and refuses a session of the wrong kind. */
function primaryClientClass(locator: PrimaryLocator): typeof Client {
  return class PrimaryClient extends HeardClient {
    private readonly reported = new Map<string, string>();

    constructor(config?: ClientConfig) {
      super(config);
      (this.connection as unknown as NodeJS.EventEmitter).on('parameterStatus', (m: { parameterName: string; parameterValue: string }) =>
        this.reported.set(m.parameterName, m.parameterValue),
      );
    }

    // Both forms pg offers: pg-pool passes a callback, direct users await the promise.
    connect(): Promise<Client>;
    connect(callback: ConnectCallback): void;
    connect(callback?: ConnectCallback): Promise<Client> | void {
      const done = this.connectToLocated();
      if (!callback) return done;
      done.then(
        (c) => callback(undefined, c),
        (err: Error) => callback(err),
      );
    }

    private async connectToLocated(): Promise<Client> {
      const host = await locator.locate();
      const self = this as unknown as { host: string; port: number; connectionParameters: { host: string; port: number } };
      self.host = self.connectionParameters.host = host.host;
      self.port = self.connectionParameters.port = host.port;
      try {
        await super.connect();
      } catch (err) {
        locator.unreachable(host);
        throw err;
      }
      let accepted: boolean;
      try {
        accepted = await acceptsSession(this, locator.url.targetSessionAttrs, this.reported);
      } catch (err) {
        locator.unreachable(host);
        await this.end().catch(() => undefined);
        throw err;
      }
      if (!accepted) {
        locator.forget(host);
        await this.end().catch(() => undefined);
        throw new NoPrimaryError(locator.url.targetSessionAttrs, [`${host.host}:${host.port} is read-only`]);
      }
      // The server went away under an open connection (a primary killed or demoted): the next connection
      // looks for the primary again instead of trying this host first.
      // A reset is reported ('error') before the socket closes ('end'): either one forgets the host. Ahead of
      // the client's own listeners, which end the client (so a deliberate end() is then no longer told apart).
      const lost = () => {
        if (!(this as unknown as { _ending: boolean })._ending) locator.forget(host);
      };
      (this.connection as unknown as NodeJS.EventEmitter).prependListener('error', lost).prependOnceListener('end', lost);
      return this;
    }
  };
}

export interface PgConnectionOptions {
  /** A single-host URL node-postgres can read (the first host's, for a list: the client replaces the host). */
  connectionString: string;
  /** The client class for pools and direct connections (HeardClient, or PrimaryClient for several hosts). */
  Client: typeof Client;
}

/**
 * What every pool and direct connection of the service (TypeORM's pool, the CLI's schema check, database
 * creation) is built from, so a multi-host DATABASE_URL means the same everywhere. Each call has its own
 * locator: a pool keeps it for its life.
 */
export function pgConnectionOptions(databaseUrl: string, connectTimeoutMs: number): PgConnectionOptions {
  const url = parseDatabaseUrl(databaseUrl);
  if (isPlainUrl(url)) return { connectionString: databaseUrl, Client: HeardClient };
  return { connectionString: url.forHost(url.hosts[0]), Client: primaryClientClass(new PrimaryLocator(url, connectTimeoutMs)) };
}

/** A connected single client (not a pool) to the database the URL names, on the host it selects. */
export async function openClient(databaseUrl: string, config: Omit<ClientConfig, 'connectionString'>): Promise<Client> {
  const options = pgConnectionOptions(databaseUrl, config.connectionTimeoutMillis ?? 0);
  const client = new options.Client({ ...config, connectionString: options.connectionString });
  await client.connect();
  return client;
}
