// The build's second step: tsc compiles only TypeScript, but the production image runs dist/ alone, so
// every folder's page templates (src/<folder>/views/) and static files (src/<folder>/assets/) are
// copied beside the compiled code (dist/src/...), where the view engine looks for them.
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const out = path.join(root, 'dist', 'src');

for (const folder of readdirSync(src, { withFileTypes: true })) {
  if (!folder.isDirectory()) continue;
  for (const kind of ['views', 'assets']) {
    const from = path.join(src, folder.name, kind);
    if (!existsSync(from)) continue;
    const to = path.join(out, folder.name, kind);
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
  }
}
