import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const SRC = join(__dirname, '../../../src');

/** The claim protocol's own names: a send's watermark columns, the batch rows, the dispatcher leases. */
const CLAIM_NAMES = /\bclaimed_through_\w*|\bdispatch_batches\b|\bdispatcher_leases\b/;
/** Where they may be written: the delivery state layer, and the migrations that made the tables. */
const HOMES = [`delivery${sep}state${sep}`, `database${sep}migrations${sep}`];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Files (relative to src/) that name the claim protocol's columns or tables in code. */
export function claimNamesOutsideHome(files: Array<{ path: string; text: string }>): string[] {
  return files.filter((f) => !HOMES.some((home) => f.path.startsWith(home)) && CLAIM_NAMES.test(withoutComments(f.text))).map((f) => f.path);
}

const files = () => sourceFiles(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

describe('the claim protocol (src/delivery/state)', () => {
  it('is the only code that names the watermark columns, dispatch_batches or dispatcher_leases', () => {
    expect(claimNamesOutsideHome(files())).toEqual([]);
  });

  it('finds such a name written elsewhere, in SQL or in an entity, but not in a comment', () => {
    expect(claimNamesOutsideHome([{ path: 'messaging/x.repository.ts', text: 'sql(tx, `SELECT 1 FROM dispatch_batches b`)' }])).toEqual(['messaging/x.repository.ts']);
    expect(claimNamesOutsideHome([{ path: 'messaging/send.entity.ts', text: "@Column({ name: 'claimed_through_seq' })" }])).toEqual(['messaging/send.entity.ts']);
    expect(claimNamesOutsideHome([{ path: 'health/y.ts', text: '// the sends.claimed_through_* watermark\n/* dispatch_batches */' }])).toEqual([]);
    expect(claimNamesOutsideHome([{ path: `delivery${sep}state${sep}claims.repository.ts`, text: 'UPDATE dispatch_batches' }])).toEqual([]);
  });
});
