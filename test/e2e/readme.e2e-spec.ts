import { ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sameAsShown, walkthrough, WalkthroughStep } from '../support/readme-walkthrough';
import { dropDatabase } from '../support/test-env';
import { until } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
const execFileAsync = promisify(execFile);

/**
 * The README's quick start, run as a new user runs it: `npm start` (the CI has just run `npm ci`), then
 * each shell block as written, through bash, with curl failing on any HTTP error. The only differences
 * from a fresh machine: the service gets its own new database, Redis prefix and a free port (the blocks'
 * `localhost:3000` is pointed there), and a short simulated receipt delay. Each answer must be what the
 * README shows (`…` stands for what differs per run: ids, secrets, times).
 */
describe('README quick start', () => {
  const steps = walkthrough(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const databaseUrl = `${process.env.DATABASE_URL}_readme`;
  let service: ChildProcess | undefined;
  let output = '';

  afterAll(async () => {
    if (service?.pid && service.exitCode === null) {
      const exited = new Promise((resolve) => service!.once('exit', resolve));
      process.kill(-service.pid, 'SIGTERM'); // npm, its shell and the node process it started
      await exited;
    }
    await dropDatabase(databaseUrl);
  });

  it('gets a new user from npm start to a delivered message, with every answer as shown', async () => {
    const env = { ...process.env, DATABASE_URL: databaseUrl, REDIS_PREFIX: `${process.env.REDIS_PREFIX}:readme`, LOG_LEVEL: 'info', PORT: '0', TEST_RECEIPT_DELAY_MS: '300' };
    const [install, ...rest] = steps;
    expect(install.command).toBe('npm ci && npm start');
    service = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    service.stdout!.on('data', (c) => (output += c));
    service.stderr!.on('data', (c) => (output += c));
    await until(() => /"msg":"listening"/.test(output) || service!.exitCode !== null, 'the service to listen', 25_000);
    const port = JSON.parse(output.split('\n').find((l) => l.includes('"msg":"listening"'))!).port as number;
    expect(output).toContain('"created":true');

    const key: Record<string, string> = {};
    for (const step of rest) {
      if (/^export API_USER=/.test(step.command)) {
        // The user pastes the key the CLI printed; so does the test.
        expect(step.command).toBe("export API_USER='api_…' API_PASS='…'");
        expect(key.API_USER).toMatch(/^api_/);
        continue;
      }
      const command = step.command.replaceAll('localhost:3000', `localhost:${port}`);
      const readOnly = !/ -d |send-sms|npm /.test(command);
      let stdout = await runBlock(command, { ...env, ...key });
      if (readOnly) {
        // "A few seconds later": a read is repeated until it shows what the README says (delivery is asynchronous).
        await until(async () => check(step, stdout) === null || ((stdout = await runBlock(command, { ...env, ...key })), false), `${command} to answer as shown`, 15_000, 200);
      }
      expect([command, check(step, stdout)]).toEqual([command, null]);
      if (command.includes('account:create')) {
        const created = JSON.parse(stdout);
        key.API_USER = created.api_username;
        key.API_PASS = created.api_password;
      }
    }
  }, 90_000);
});

/** Runs one README block through bash as a user's shell would; curl fails on HTTP errors and keeps quiet otherwise. */
async function runBlock(command: string, env: NodeJS.ProcessEnv): Promise<string> {
  const script = `set -euo pipefail\ncurl() { command curl -sS --fail-with-body "$@"; }\n${command}`;
  const { stdout } = await execFileAsync('bash', ['-c', script], { cwd: ROOT, env }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`README block failed: ${command}\n${err.stderr ?? ''}${err.stdout ?? ''}${err.message}`);
  });
  return stdout;
}

function check(step: WalkthroughStep, stdout: string): string | null {
  if (!step.shows) return null;
  if (step.shows.lang === 'json') {
    let actual: unknown;
    try {
      actual = JSON.parse(stdout);
    } catch {
      return `not JSON: ${stdout.slice(0, 300)}`;
    }
    return sameAsShown(actual, JSON.parse(step.shows.body));
  }
  const missing = step.shows.body.split('\n').filter((line) => !stdout.toLowerCase().includes(line.trim().toLowerCase()));
  return missing.length ? `missing ${JSON.stringify(missing)} in ${stdout.slice(0, 300)}` : null;
}
