import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/**
 * A client generated from the served document works: openapi-typescript turns /openapi.json into types,
 * a program of the main flows written with openapi-fetch (test/generated-client/flows.ts) type-checks
 * under `tsc --strict` against them, and, compiled, runs against the real app over HTTP.
 */
describe('A client generated from /openapi.json', () => {
  let t: TestApp;
  let dir: string;
  let baseUrl: string;
  let acct: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
    // A project of its own, as a user's would be: ESM, its own tsconfig, the repository's packages.
    dir = await mkdtemp(join(tmpdir(), 'generated-client-'));
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], types: ['node'] },
        files: ['flows.ts'],
      }),
    );
    await copyFile(join(ROOT, 'test/generated-client/flows.ts'), join(dir, 'flows.ts'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('generates, type-checks with tsc --strict, and runs the main flows against the app', async () => {
    await run(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), `${baseUrl}/openapi.json`, '--output', join(dir, 'schema.d.ts')], { cwd: dir });
    const schema = await readFile(join(dir, 'schema.d.ts'), 'utf8');
    expect(schema).toContain('sendMessages: {');
    expect(schema).not.toMatch(/Controller_/);

    const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--strict'], { cwd: dir }).catch((err: { stdout: string }) => ({
      failed: err.stdout,
    }));
    expect(tsc).not.toHaveProperty('failed');

    const { stdout } = await run(process.execPath, [join(dir, 'flows.js'), baseUrl, acct.username, acct.password], { cwd: dir });
    const out = JSON.parse(stdout);
    expect(out).toEqual({
      balance: 100,
      contactNumber: '61412000201',
      sent: { status: 'success', message: 'Hi Ann', sendId: expect.any(Number), cost: 1 },
      replayed: true,
      lookupStatus: 'pending',
      cancelled: { status: 'complete', send_id: expect.any(Number), cancelled_count: 1, credits_refunded: 1 },
      listSend: { recipients: 1, sendStatus: 'queued', scheduledFor: null },
      simple: 'success',
      contactImport: { state: 'queued', listId: true, finishedAt: null },
      refused: { status: 400, error: 'Missing or invalid messages parameter; should be an array of messages' },
    });
    // What the program did is really there.
    const lookup = await t.api.get('/v1/messages', { auth: acct.auth, query: { custom_ref: 'generated-1' } });
    expect(lookup.body.results).toHaveLength(1);
  });
});
