// npm run test:fuzz -- [--cases N] [--seed S]: the fuzz suite with more cases or another seed. Prints the
// time it took; a failing case is printed as a curl line.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '3000' }, seed: { type: 'string', default: '20261122' } } });
for (const [name, value] of Object.entries(values)) {
  if (!/^\d+$/.test(value)) {
    process.stderr.write(`--${name} must be a non-negative integer\n`);
    process.exit(2);
  }
}
const started = Date.now();
// The path goes first: --selectProjects takes every word after it as a project name.
const result = spawnSync('npx', ['jest', 'test/e2e/fuzz.e2e-spec.ts', '--selectProjects', 'e2e'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_CASES: values.cases, FUZZ_SEED: values.seed },
});
process.stdout.write(`test:fuzz --cases ${values.cases} --seed ${values.seed}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(result.status ?? 1);
