// Compiles src/ into dist/ (tsc -p tsconfig.build.json, then copy-page-files.mjs) only when a source changed since the last build
// this script made, so `npm run cli` and `npm start` cost no compile when nothing changed. Without src/
// (the production image holds dist/ only) there is nothing to build. Its messages go to stderr: the
// CLI's stdout stays one JSON object.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist', '.build-stamp');
const INPUTS = ['src', 'bench', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** Newest mtime under a path; directories count too, so a deleted or renamed file is a change. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

if (!existsSync(join(root, 'src'))) process.exit(0);
const built = existsSync(STAMP) && existsSync(join(root, 'dist/src/main.js')) && existsSync(join(root, 'dist/src/cli.js')) ? statSync(STAMP).mtimeMs : 0;
if (built > 0 && Math.max(...INPUTS.map((input) => newest(join(root, input)))) <= built) process.exit(0);

const started = new Date();
process.stderr.write('building dist/ (sources changed since the last build)\n');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', 2, 2] });
if (result.status !== 0) process.exit(result.status ?? 1);
// tsc copies no templates or static files: the second step puts views/ and assets/ beside the code.
const copied = spawnSync(process.execPath, [join(root, 'scripts', 'copy-page-files.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
if (copied.status !== 0) process.exit(copied.status ?? 1);
// Stamped with the time the build started: a file saved during the build is newer, so the next run builds again.
writeFileSync(STAMP, '');
utimesSync(STAMP, started, started);
