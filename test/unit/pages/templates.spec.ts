import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { discoverPartials, VIEWS_ROOT } from '../../../src/pages/view-engine';

function templates(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : templates(full);
    return name.endsWith('.hbs') ? [full] : [];
  });
}

/** `{{ }}` escapes HTML; `{{{ }}}` does not, so only the layout may use it, for the already-rendered page body. */
describe('page templates', () => {
  const files = templates(VIEWS_ROOT);

  it('are found under src/', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it('never output unescaped values except the layout body', () => {
    const offenders = files.flatMap((file) => {
      const unescaped = readFileSync(file, 'utf8').match(/\{\{\{[^}]*\}\}\}|\{\{&[^}]*\}\}/g) ?? [];
      const allowed = path.relative(VIEWS_ROOT, file) === 'pages/views/layout.hbs' ? ['{{{body}}}'] : [];
      return unescaped.filter((u) => !allowed.includes(u)).map((u) => `${path.relative(VIEWS_ROOT, file)}: ${u}`);
    });
    expect(offenders).toEqual([]);
  });

  it('contain no inline script or style (the CSP would block it)', () => {
    const offenders = files.filter((file) => /<script(?![^>]*\bsrc=)|\sstyle=|<style|\son[a-z]+=/i.test(readFileSync(file, 'utf8')));
    expect(offenders.map((f) => path.relative(VIEWS_ROOT, f))).toEqual([]);
  });

  it('post every form with a CSRF token', () => {
    const offenders = files.filter((file) => {
      const forms = readFileSync(file, 'utf8').match(/<form[^>]*method="post"[\s\S]*?<\/form>/gi) ?? [];
      return forms.some((form) => !/\{\{> csrf\}\}|name="_csrf"/.test(form));
    });
    expect(offenders.map((f) => path.relative(VIEWS_ROOT, f))).toEqual([]);
  });

  it('register each partial once, by file name', () => {
    expect(discoverPartials()).toMatchObject({ csrf: 'pages/views/partials/csrf.hbs', 'site-header': 'pages/views/partials/site-header.hbs' });
  });
});
