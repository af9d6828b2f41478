import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findDocsDir, GuideLibrary, headingAnchor, servedHref } from '../../../src/guides/guide-library';

describe(GuideLibrary.name, () => {
  function library(files: Record<string, string>, readme = '# Read me\n'): GuideLibrary {
    const root = mkdtempSync(path.join(tmpdir(), 'guides-'));
    mkdirSync(path.join(root, 'docs', 'webhook-signature'), { recursive: true });
    writeFileSync(path.join(root, 'README.md'), readme);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, 'docs', name), text);
    return new GuideLibrary(path.join(root, 'docs'));
  }

  it('serves links to other guides, README and recipe files under /guides, and leaves the rest', () => {
    expect(servedHref('webhooks.md')).toBe('/guides/webhooks');
    expect(servedHref('webhooks.md#verifying-a-webhook')).toBe('/guides/webhooks#verifying-a-webhook');
    expect(servedHref('../README.md#quick-start')).toBe('/guides/readme#quick-start');
    expect(servedHref('webhook-signature/verify.py')).toBe('/guides/files/webhook-signature/verify.py');
    expect(servedHref('#payloads')).toBe('#payloads');
    expect(servedHref('/docs')).toBe('/docs');
    expect(servedHref('http://localhost:3000/docs')).toBe('http://localhost:3000/docs');
    expect(servedHref('../src/index.ts')).toBe('../src/index.ts');
    expect(servedHref('../CHANGELOG.md')).toBe('/guides/changelog');
  });

  it('reads the links of README and CHANGELOG from the repository root', () => {
    expect(servedHref('docs/webhooks.md#payloads', true)).toBe('/guides/webhooks#payloads');
    expect(servedHref('CHANGELOG.md', true)).toBe('/guides/changelog');
    expect(servedHref('docs/webhook-signature/verify.mjs', true)).toBe('/guides/files/webhook-signature/verify.mjs');
    expect(servedHref('#quick-start', true)).toBe('#quick-start');
    expect(servedHref('src/index.ts', true)).toBe('src/index.ts');
  });

  it('makes GitHub’s heading anchors', () => {
    expect(headingAnchor('Verifying a webhook')).toBe('verifying-a-webhook');
    expect(headingAnchor('Delivery, retries and duplicates')).toBe('delivery-retries-and-duplicates');
    expect(headingAnchor('Trying a receiver: test events')).toBe('trying-a-receiver-test-events');
  });

  it('renders a guide with anchored headings and served links, escaping any raw HTML', () => {
    const guides = library({ 'a.md': '# Alpha\n\n## Second part\n\nSee [b](b.md#x) and <script>alert(1)</script>.\n\n<!-- a test marker -->\n' });
    const guide = guides.render('a')!;
    expect(guide.title).toBe('Alpha');
    expect(guide.html).toContain('<h2 id="second-part">Second part</h2>');
    expect(guide.html).toContain('<a href="/guides/b#x">b</a>');
    expect(guide.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(guide.html).not.toContain('<script>');
    expect(guide.html).not.toContain('a test marker');
  });

  it('lists README first, then the guides by name with their titles; knows no other names', () => {
    const guides = library({ 'b.md': '# Bravo\n', 'a.md': 'no heading\n', 'notes.txt': 'x' }, '# The product\n');
    expect(guides.list()).toEqual([
      { name: 'readme', title: 'The product' },
      { name: 'a', title: 'Guide' },
      { name: 'b', title: 'Bravo' },
    ]);
    expect(guides.render('notes')).toBeNull();
    expect(guides.render('../README')).toBeNull();
    expect(guides.rawFile('../README.md')).toBeNull();
    expect(guides.rawFile('webhook-signature/missing.py')).toBeNull();
  });

  it('finds the repository’s docs/ from src/guides', () => {
    expect(findDocsDir(path.join(__dirname, '../../../src/guides'))).toBe(path.resolve(__dirname, '../../../docs'));
  });
});
