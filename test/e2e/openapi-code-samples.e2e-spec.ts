import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SAMPLE_REQUESTS } from '../../src/bootstrap/openapi-code-samples';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

type Sample = { lang: string; label: string; source: string };

/** How each sample language runs here: the interpreter, and the file it reads the sample from. */
const RUNNERS: Record<string, { file: string; command: (file: string) => string[] }> = {
  Shell: { file: 'sample.sh', command: (f) => ['bash', f] },
  JavaScript: { file: 'sample.mjs', command: (f) => [process.execPath, f] },
  Python: { file: 'sample.py', command: (f) => ['python3', f] },
  PHP: { file: 'sample.php', command: (f) => ['php', f] },
};

/** The document's code samples, run as written in each language against the listening service. */
describe('OpenAPI code samples', () => {
  let t: TestApp;
  let acct: TestAccount;
  let baseUrl: string;
  let dir: string;
  let samples: Map<string, Sample[]>;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    acct = await createAccount(t.app, { test: true, credits: 100, senders: ['MyBrand'] });
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string; 'x-codeSamples'?: Sample[] }>>;
    };
    samples = new Map(
      Object.values(doc.paths)
        .flatMap((item) => Object.values(item))
        .filter((op) => op['x-codeSamples'])
        .map((op) => [op.operationId!, op['x-codeSamples']!]),
    );
    dir = mkdtempSync(join(tmpdir(), 'code-samples-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  /** Runs a sample in a child process (asynchronously: the service answering it lives in this process). */
  async function run(sample: Sample): Promise<{ status: number; body: unknown }> {
    const runner = RUNNERS[sample.lang];
    const file = join(dir, runner.file);
    writeFileSync(file, sample.source);
    const [command, ...args] = runner.command(file);
    const env = { ...process.env, BASE_URL: baseUrl, API_USERNAME: acct.username, API_PASSWORD: acct.password };
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(command, args, { env, timeout: 30_000 }, (err, out, errOut) => (err ? reject(new Error(`${sample.label} failed: ${err.message} ${errOut}`)) : resolve(out))),
    );
    const text = stdout.trim();
    // curl prints the body alone; the others print "<status> <json>".
    if (sample.lang === 'Shell') return { status: 200, body: JSON.parse(text) };
    const space = text.indexOf(' ');
    return { status: Number(text.slice(0, space)), body: JSON.parse(text.slice(space + 1)) };
  }

  it('are on every main operation, in curl, Node, Python and PHP', () => {
    expect([...samples.keys()].sort()).toEqual(Object.keys(SAMPLE_REQUESTS).sort());
    for (const list of samples.values()) expect(list.map((s) => s.lang)).toEqual(['Shell', 'JavaScript', 'Python', 'PHP']);
  });

  it.each(Object.keys(SAMPLE_REQUESTS))('%s: each language’s sample gets the same answer from the service', async (operationId) => {
    const answers: Array<{ label: string; status: number; body: unknown }> = [];
    for (const sample of samples.get(operationId)!) {
      // Each language creates the same contact: start each from an empty address book.
      await t.app.get(DataSource).query(`DELETE FROM contacts WHERE account_id = $1`, [acct.accountId]);
      answers.push({ label: sample.label, ...(await run(sample)) });
    }
    for (const answer of answers) expect([answer.label, answer.status]).toEqual([answer.label, 200]);
    const shapes = answers.map((a) => Object.keys(a.body as object).sort());
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    expect((answers[0].body as { status?: string }).status).toBe('complete');
  });
});
