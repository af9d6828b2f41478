import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { until } from './wait';

/**
 * A pg_auto_failover formation on loopback for a test: a monitor and two PostgreSQL nodes (Debian's
 * postgresql-15-auto-failover), each `pg_autoctl run` on ports of its own under a temporary directory,
 * as the `postgres` user (PostgreSQL refuses to run as root, and CI runs as root). Everything it starts is
 * in process groups it owns, so stop() ends them all and removes the directory, whatever happened.
 */

/**
 * Failover timeouts on the monitor, shortened from the defaults (5 s checks, 20 s to call a node
 * unhealthy, 30 s waiting for the old primary to demote) so a dead primary is replaced within seconds.
 */
export const FAST_FAILOVER: Record<string, number> = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 3000,
  'pgautofailover.primary_demote_timeout': 5000,
};

export interface FormationNode {
  name: string;
  port: number;
  pgdata: string;
  run: ChildProcess;
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  assigned: string;
}

const PG_AUTOCTL = '/usr/bin/pg_autoctl';

export function autoFailoverInstalled(): boolean {
  return existsSync(PG_AUTOCTL);
}

export class AutoFailoverFormation {
  readonly nodes: FormationNode[] = [];
  private readonly groups: ChildProcess[] = [];
  private readonly log: string[] = [];
  private readonly hung: number[] = [];
  private monitorPort = 0;

  private constructor(readonly dir: string) {}

  /** Monitor, then node1 (the first primary), then node2 (its synchronous standby); resolves once both run. */
  static async start(database: string): Promise<AutoFailoverFormation> {
    if (!autoFailoverInstalled()) throw new Error('pg_autoctl is missing: apt-get install postgresql-15-auto-failover');
    const formation = new AutoFailoverFormation(mkdtempSync(path.join(os.tmpdir(), 'pgaf-')));
    try {
      await formation.startAll(database);
      return formation;
    } catch (err) {
      await formation.stop();
      throw new Error(`${(err as Error).message}\n--- pg_autoctl output ---\n${formation.log.slice(-60).join('\n')}`, { cause: err });
    }
  }

  /** The libpq-style URL listing both nodes, as `pg_autoctl show uri` prints it (without sslmode: --no-ssl). */
  url(database: string): string {
    return `postgres://postgres@${this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/${database}?target_session_attrs=read-write`;
  }

  async states(): Promise<NodeState[]> {
    return this.onMonitor(async (c) => {
      const { rows } = await c.query<NodeState>(
        'SELECT nodename AS name, nodeport AS port, reportedstate::text AS reported, goalstate::text AS assigned FROM pgautofailover.node ORDER BY nodeid',
      );
      return rows;
    });
  }

  /** The node the monitor has as primary (reported and assigned). */
  async primary(): Promise<FormationNode | undefined> {
    const primary = (await this.states()).find((s) => ['primary', 'wait_primary', 'single'].includes(s.reported) && s.reported === s.assigned);
    return this.nodes.find((n) => n.name === primary?.name);
  }

  /** The machine dies: pg_autoctl and PostgreSQL of this node get SIGKILL, with no chance to hand over. */
  kill(node: FormationNode): void {
    const postmaster = this.postmasterPid(node.pgdata);
    signalGroup(node.run, 'SIGKILL');
    if (postmaster) signalPid(postmaster, 'SIGKILL');
  }

  /**
   * The machine hangs: pg_autoctl, PostgreSQL and every backend of this node are stopped (SIGSTOP). Nothing is
   * closed or reset: the kernel still takes connections and data, and nothing answers. stop() ends them.
   */
  hang(node: FormationNode): void {
    const postmaster = this.postmasterPid(node.pgdata);
    // The postmaster first, so it forks no backend after its children are listed.
    if (postmaster) signalPid(postmaster, 'SIGSTOP');
    signalGroup(node.run, 'SIGSTOP');
    const stopped = postmaster ? [postmaster, ...descendants(postmaster)] : [];
    for (const pid of stopped) signalPid(pid, 'SIGSTOP');
    this.hung.push(...stopped);
  }

  async stop(): Promise<void> {
    // Stopped processes take SIGKILL only (a stopped backend would outlive its killed postmaster).
    for (const pid of this.hung) signalPid(pid, 'SIGKILL');
    for (const group of this.groups) signalGroup(group, 'SIGTERM');
    await until(() => this.groups.every((g) => g.exitCode !== null || g.signalCode !== null), 'pg_autoctl to stop', 20_000, 100).catch(() => undefined);
    for (const group of this.groups) signalGroup(group, 'SIGKILL');
    // A PostgreSQL left behind by a pg_autoctl that died first.
    for (const pgdata of [path.join(this.dir, 'monitor'), ...this.nodes.map((n) => n.pgdata)]) {
      const pid = this.postmasterPid(pgdata);
      if (pid) signalPid(pid, 'SIGKILL');
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async startAll(database: string): Promise<void> {
    execFileSync('chown', ['postgres:postgres', this.dir]);
    const [monitorPort, ...nodePorts] = await freePorts(3);
    this.monitorPort = monitorPort;
    const monitorData = path.join(this.dir, 'monitor');
    const common = ['--hostname', '127.0.0.1', '--listen', '127.0.0.1', '--auth', 'trust', '--no-ssl'];
    await this.runToEnd('create monitor', ['create', 'monitor', '--pgdata', monitorData, '--pgport', String(monitorPort), ...common]);
    this.spawnGroup('monitor', ['run', '--pgdata', monitorData]);
    await until(() => this.onMonitor(async () => true).catch(() => false), 'the monitor to accept connections', 60_000, 200);
    await this.onMonitor(async (c) => {
      for (const [name, value] of Object.entries(FAST_FAILOVER)) await c.query(`ALTER SYSTEM SET ${name} = ${value}`);
      await c.query('SELECT pg_reload_conf()');
    });
    const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
    for (const [i, port] of nodePorts.entries()) {
      const name = `node${i + 1}`;
      const pgdata = path.join(this.dir, name);
      const run = this.spawnGroup(name, [
        'create',
        'postgres',
        '--pgdata',
        pgdata,
        '--pgport',
        String(port),
        ...common,
        '--monitor',
        monitorUrl,
        '--dbname',
        database,
        '--name',
        name,
        '--run',
      ]);
      this.nodes.push({ name, port, pgdata, run });
      // node1 registers first and becomes the primary; node2 then follows it.
      const settled = i === 0 ? ['single', 'wait_primary', 'primary'] : ['secondary'];
      await until(
        async () => {
          const state = (await this.states()).find((s) => s.name === name);
          // The standby's base backup waits for a checkpoint on the primary (spread over minutes): ask for one.
          if (i > 0 && state && ['wait_standby', 'catchingup'].includes(state.reported)) await this.checkpoint(this.nodes[0]).catch(() => undefined);
          return !!state && settled.includes(state.reported) && state.reported === state.assigned;
        },
        `${name} to be ${settled.join(' or ')}`,
        120_000,
        500,
      );
    }
    await until(async () => (await this.primary())?.name === 'node1', 'node1 to be primary with a secondary', 60_000, 500);
  }

  private async checkpoint(node: FormationNode): Promise<void> {
    const c = new Client({ host: '127.0.0.1', port: node.port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
    await c.connect();
    try {
      await c.query('CHECKPOINT');
    } finally {
      await c.end();
    }
  }

  private async onMonitor<T>(work: (c: Client) => Promise<T>): Promise<T> {
    const c = new Client({ host: '127.0.0.1', port: this.monitorPort, user: 'postgres', database: 'pg_auto_failover', connectionTimeoutMillis: 2000 });
    c.on('error', () => undefined);
    await c.connect();
    try {
      return await work(c);
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  private postmasterPid(pgdata: string): number | undefined {
    const file = path.join(pgdata, 'postmaster.pid');
    if (!existsSync(file)) return undefined;
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  /** pg_autoctl as `postgres`, its configuration and state under the formation's directory. */
  private command(args: string[]): [string, string[]] {
    const bin = latestPostgresBin();
    const env = [`PATH=${bin}:/usr/bin:/bin`, ...['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR'].map((v) => `${v}=${path.join(this.dir, v.toLowerCase())}`)];
    const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
    const argv = [...asPostgres, 'env', ...env, PG_AUTOCTL, ...args];
    return [argv[0], argv.slice(1)];
  }

  private spawnGroup(name: string, args: string[]): ChildProcess {
    const [cmd, argv] = this.command(args);
    // Its own process group (detached), so a signal to the group reaches pg_autoctl's PostgreSQL too.
    const child = spawn(cmd, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (chunk: Buffer) =>
        this.log.push(
          ...chunk
            .toString()
            .trimEnd()
            .split('\n')
            .map((l) => `${name}: ${l}`),
        ),
      );
    }
    this.groups.push(child);
    return child;
  }

  private async runToEnd(name: string, args: string[]): Promise<void> {
    const child = this.spawnGroup(name, args);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    if (code !== 0) throw new Error(`pg_autoctl ${args.slice(0, 2).join(' ')} exited with ${code}`);
  }

  /** pg_autoctl's log lines (for a failure's explanation). */
  output(): string {
    return this.log.slice(-80).join('\n');
  }
}

function latestPostgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql')
    .map(Number)
    .filter((v) => Number.isInteger(v))
    .sort((a, b) => b - a);
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** Every process below `pid`, read from /proc (each process's parent is the 4th field of its stat). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    try {
      // The command name (2nd field) is in parentheses and may hold spaces: the fields after its ')' are split.
      const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), child]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid) signalPid(-child.pid, signal);
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
