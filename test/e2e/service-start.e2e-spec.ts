import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { dropDatabase } from '../support/test-env';

const MAIN = path.resolve(__dirname, '../../dist/src/main.js');

function start(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number> } {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env } });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  return { child, output: () => output, exited };
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A cold start builds nothing but still loads every module and migrates a new database: minutes on a loaded machine.
jest.setTimeout(120_000);

describe('Starting the service (dist/src/main.js, as npm start runs it)', () => {
  it('creates its database, applies migrations and serves /health', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `${url.pathname}_boot`;
    const service = start({ DATABASE_URL: url.toString(), PORT: '0', LOG_LEVEL: 'info' });
    try {
      const port = await waitFor(() => {
        const line = service
          .output()
          .split('\n')
          .find((l) => l.includes('"msg":"listening"'));
        return line ? (JSON.parse(line).port as number) : undefined;
      }, 90_000);
      expect(service.output()).toContain('"created":true');
      expect(service.output()).toContain('Foundation1763700000000');
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok', database: 'up', redis: 'up', carrier: { kind: 'simulator' } });
      expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(200);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await dropDatabase(url.toString());
    }
  });

  it('runs the worker role with only /health and /metrics on its port', async () => {
    const service = start({ APP_ROLE: 'worker', LOG_LEVEL: 'info', PORT: '0' });
    try {
      const port = await waitFor(() => {
        const line = service
          .output()
          .split('\n')
          .find((l) => l.includes('"msg":"worker started"'));
        return line ? (JSON.parse(line).port as number) : undefined;
      }, 90_000);
      expect(service.output()).not.toContain('"msg":"listening"');
      // The worker's port serves its health (with its carrier) and metrics, and no API.
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(await health.json()).toMatchObject({ status: 'ok', carrier: { kind: 'simulator' } });
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/v1/account`)).status).toBe(404);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it.each([
    [{ APP_ROLE: 'everything' }, 'APP_ROLE="everything" must be one of all, api, worker'],
    [{ PORT: 'http' }, 'PORT="http"'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL="localhost:6379" must be a redis:// URL'],
    [{ NODE_ENV: 'production' }, 'NODE_ENV=production needs a carrier: SMPP_HOST, SMPP_SYSTEM_ID and SMPP_PASSWORD, or CARRIER_SECRET_KEY'],
    [{ NODE_ENV: 'production', SMPP_HOST: 'smsc', SMPP_SYSTEM_ID: 'id', SMPP_PASSWORD: 'pw' }, 'TWO_FACTOR_KEY is required with NODE_ENV=production'],
  ])('refuses to start with %j and names the variable', async (env, message) => {
    const service = start(env);
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain(message);
  });
});
