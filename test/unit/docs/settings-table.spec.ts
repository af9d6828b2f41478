import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envName, SETTINGS } from '../../../src/config/app-config';

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/** Variables named in the first column of the README's settings table (`| `A`, `B` | default | meaning |`). */
function documentedVariables(markdown: string): Set<string> {
  const rows = markdown.split('\n').filter((line) => /^\| `[A-Z][A-Z0-9_]*`/.test(line));
  return new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])));
}

describe("README's settings table", () => {
  it('names every setting the service reads, and nothing else', () => {
    const declared = Object.keys(SETTINGS).map((key) => envName(key as keyof typeof SETTINGS));
    const documented = documentedVariables(README);
    expect(declared.filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !declared.includes(name))).toEqual([]);
  });
});
