import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => statSync(join(ROOT, 'docs', f)).isFile())
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to dashes. */
function anchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6} +(.+)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

function textFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (['node_modules', 'dist', '.git', 'coverage'].includes(name)) return [];
    if (statSync(path).isDirectory()) return textFiles(path);
    return /\.(ts|mjs|js|md|json|ya?ml)$|Dockerfile$|^run$/.test(name) ? [path] : [];
  });
}

describe('The documentation', () => {
  it.each(DOCS)('%s links only to files and headings inside the repository (or to the running service)', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^https?:\/\/localhost:3000\//.test(target)) continue;
      expect([doc, target]).toEqual([doc, expect.not.stringMatching(/^[a-z]+:/)]);
      const [file, anchor] = target.split('#');
      const path = file ? join(dirname(join(ROOT, doc)), file) : join(ROOT, doc);
      expect([doc, target, existsSync(path), relative(ROOT, path).startsWith('..')]).toEqual([doc, target, true, false]);
      if (anchor) expect([doc, target, anchors(readFileSync(path, 'utf8')).has(anchor)]).toEqual([doc, target, true]);
    }
  });

  it('nothing in the repository points outside it', () => {
    const offenders = textFiles(ROOT).filter((file) => /\.\.\/shared|\/work\/shared|shared\/spec/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
