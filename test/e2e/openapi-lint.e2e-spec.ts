import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from '../support/test-app';

const execFileAsync = promisify(execFile);
/** The CLI's stdout, also when it exits non-zero for what it found (the report is the assertion). */
const run = (file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  execFileAsync(file, args, options).catch((err: { stdout?: string }) => {
    if (!err.stdout) throw err;
    return { stdout: err.stdout };
  });
const ROOT = join(__dirname, '..', '..');

/**
 * The served document passes both common OpenAPI linters with nothing to report: Redocly's recommended
 * ruleset (redocly.yaml) and Spectral's spectral:oas (.spectral.yaml). Both run as their CLIs would for
 * a user, on the bytes /openapi.json serves.
 */
describe('OpenAPI document lint', () => {
  let t: TestApp;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    file = join(dir, 'openapi.json');
    await writeFile(file, (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('has no error and no warning under @redocly/cli recommended', async () => {
    const { stdout } = await run(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('has no error and no warning under @stoplight/spectral-cli spectral:oas', async () => {
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'node_modules/@stoplight/spectral-cli/dist/index.js'), 'lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '-f', 'json', '--quiet'],
      {
        cwd: ROOT,
      },
    );
    const results = JSON.parse(stdout) as Array<{ code: string; message: string; path: string[] }>;
    expect(results.map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });
});
