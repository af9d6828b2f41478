/**
 * A redis-server of the test's own on a free loopback port, which the test may stop and start again
 * (the machine's shared Redis is never touched). Every write is appended to a file in a temporary
 * directory (appendfsync always), so a stop and start is an outage, not a flush: what was stored is there
 * again, as for a restarted Redis with persistence.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { freePort } from './free-port';

export class PrivateRedis {
  port = 0;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'private-redis-'));
  private child: ChildProcess | null = null;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server (on the same port as before after a stop) and resolves once it answers PING. */
  async start(): Promise<void> {
    if (this.child) return;
    this.port ||= await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--protected-mode', 'yes'],
      { stdio: 'ignore' },
    );
    this.child = child;
    let onExit: (code: number | null) => void = () => undefined;
    const exited = new Promise<never>((_, reject) => (onExit = (code) => reject(new Error(`redis-server exited (${code}) on port ${this.port}`))));
    child.once('exit', onExit);
    try {
      await Promise.race([this.answering(), exited]);
    } finally {
      child.off('exit', onExit);
    }
  }

  /** Resolves once a PING is answered (the server loads its file before it listens). */
  private async answering(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const client = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        if ((await client.ping()) === 'PONG') return;
      } catch (err) {
        if (attempt >= 200) throw err;
      } finally {
        client.disconnect();
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** SIGTERM (a clean shutdown: clients are disconnected, the port closes) and its exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** Stops it and removes its files. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
