import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envName, SETTINGS } from '../../../src/config/app-config';

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/** Variables named in the first column of the README's settings table (`| `A`, `B` | default | meaning |`), as often as they are named. */
function documentedVariables(markdown: string): string[] {
  const rows = markdown.split('\n').filter((line) => /^\| `[A-Z][A-Z0-9_]*`/.test(line));
  return rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
}

/**
 * Each row's defaults, in the order of its variables: a backticked value, or null for "unset" (one "unset"
 * stands for all of a row's variables). `$PORT` in a default reads as the port's own default.
 */
function documentedDefaults(markdown: string): Map<string, string | null> {
  const defaults = new Map<string, string | null>();
  const port = String(SETTINGS.port.default);
  for (const row of markdown.split('\n').filter((line) => /^\| `[A-Z][A-Z0-9_]*`/.test(line))) {
    const [, namesCell, defaultsCell] = row.split('|');
    const names = [...namesCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]);
    let values = [...defaultsCell.matchAll(/`([^`]*)`|\bunset\b/g)].map((m) => (m[1] === undefined ? null : m[1].replaceAll('$PORT', port)));
    if (values.length === 1 && values[0] === null) values = names.map(() => null);
    names.forEach((name, i) => defaults.set(name, i < values.length ? values[i] : 'missing'));
  }
  return defaults;
}

describe("README's settings table", () => {
  it('names every setting the service reads, and nothing else', () => {
    const declared = Object.keys(SETTINGS).map((key) => envName(key as keyof typeof SETTINGS));
    const documented = documentedVariables(README);
    expect(declared.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !declared.includes(name))).toEqual([]);
  });

  it('names each setting in one row only, so no two rows can disagree', () => {
    const documented = documentedVariables(README);
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
  });

  it("gives each setting's default as the service has it", () => {
    const documented = documentedDefaults(README);
    const differing = Object.entries(SETTINGS)
      .map(([key, setting]) => {
        const name = envName(key as keyof typeof SETTINGS);
        const actual = setting.default === null || setting.default === undefined ? null : String(setting.default);
        return { name, readme: documented.get(name), actual };
      })
      .filter(({ readme, actual }) => readme !== actual);
    expect(differing).toEqual([]);
  });
});
