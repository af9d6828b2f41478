import { fuzzApi } from '../fuzz/fuzz-run';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The fuzz suite over the served OpenAPI document (fast-check): a fixed seed and a few thousand cases in
 * `npm test`; `npm run test:fuzz -- --cases N --seed S` runs more (FUZZ_CASES, FUZZ_SEED).
 */
const cases = Number(process.env.FUZZ_CASES ?? 3000);
const seed = Number(process.env.FUZZ_SEED ?? 20261122);

jest.setTimeout(Math.max(120_000, cases * 50));

describe('Fuzzing every operation of the OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    // An API instance: no dispatch competing for the cores while thousands of requests go through.
    t = await startTestApp({ appRole: 'api' });
  });
  afterAll(() => t.close());

  it(`answers ${cases} generated requests (seed ${seed}) with documented statuses in the envelope, never a 5xx, and stays healthy`, async () => {
    const report = await fuzzApi(t.app, { cases, seed, log: process.env.FUZZ_CASES ? (line) => process.stdout.write(`${line}\n`) : undefined });
    process.stdout.write(
      `fuzz: ${report.cases} cases over ${report.operations} operations, seed ${report.seed}, ${(report.elapsedMs / 1000).toFixed(1)} s; statuses ${JSON.stringify(report.statuses)}; limited keys ${JSON.stringify(report.limitedKeys)}\n`,
    );
    if (report.failure) throw new Error(`${report.failure.reason}\nreproduce:\n${report.failure.curl}`);
    expect(report.cases).toBe(cases);
    expect(report.operations).toBeGreaterThanOrEqual(20);
    // The limited keys were exercised: out-of-scope requests were made and refused at the scope, the fenced key at the address.
    expect(report.limitedKeys.scopeRefused).toBeGreaterThan(0);
    expect(report.limitedKeys.addressRefused).toBeGreaterThan(0);
  });
});
