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

/**
 * `{{ }}` escapes HTML; `{{{ }}}` does not, so only these may use it: the layout, for the already-rendered
 * page body, and a guide, for markdown-it's output with raw HTML escaped (html: false; guide-library.spec).
 */
const UNESCAPED_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'pages/views/layout.hbs': ['{{{body}}}'],
  'guides/views/guide.hbs': ['{{{guide.html}}}'],
};

/** A template's form fields: every input, textarea and select but hidden inputs, checkboxes, radio buttons and buttons. */
function controls(text: string): string[] {
  return (text.match(/<(?:input|textarea|select)\b(?:[^>{]|\{\{[^}]*\}\})*>/g) ?? []).filter((tag) => !/\stype="(?:hidden|checkbox|radio|submit)"/.test(tag));
}

/**
 * Fields required on one choice and not otherwise, so neither marked nor `required`: the Send page's numbers (when
 * sending to numbers) and day and time (when sending later); a contact's new list (when no list is chosen).
 */
const CONDITIONAL: readonly string[] = [
  'dashboard/views/send.hbs#numbers',
  'dashboard/views/send.hbs#send_date',
  'dashboard/views/send.hbs#send_time',
  'dashboard/views/contact-edit.hbs#new_list',
];

describe('page templates', () => {
  const files = templates(VIEWS_ROOT);

  it('are found under src/', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it('never output unescaped values except the layout body and a rendered guide', () => {
    const offenders = files.flatMap((file) => {
      const unescaped = readFileSync(file, 'utf8').match(/\{\{\{[^}]*\}\}\}|\{\{&[^}]*\}\}/g) ?? [];
      const allowed = UNESCAPED_ALLOWED[path.relative(VIEWS_ROOT, file)] ?? [];
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

  it('let a keyboard scroll every table box that holds nothing focusable (on a phone a table scrolls sideways inside it)', () => {
    const offenders = files.flatMap((file) => {
      const boxes = readFileSync(file, 'utf8').match(/<div class="table-wrap"[^>]*>[\s\S]*?<\/table>/g) ?? [];
      return boxes
        .filter((box) => !/^<div[^>]*\btabindex="0"[^>]*\brole="region"[^>]*\baria-label="[^"]+"/.test(box))
        .filter((box) => !/<a\s|<button|<input|<select|<summary/.test(box))
        .map((box) => `${path.relative(VIEWS_ROOT, file)}: ${box.slice(0, box.indexOf('>') + 1)}`);
    });
    expect(offenders).toEqual([]);
  });

  it('let every field carry fieldAria, which marks it when the form comes back with an error about it', () => {
    const offenders = files.flatMap((file) =>
      controls(readFileSync(file, 'utf8'))
        .filter((tag) => {
          const aria = /\{\{fieldAria "([^"]+)"/.exec(tag);
          const name = /\sname="([^"{]+)"/.exec(tag);
          // A literal name is the one the helper is told; a field may not also set aria-describedby itself.
          return !/\{\{fieldAria /.test(tag) || (aria && name && aria[1] !== name[1]) || /\saria-describedby=/.test(tag);
        })
        .map((tag) => `${path.relative(VIEWS_ROOT, file)}: ${tag}`),
    );
    expect(offenders).toEqual([]);
  });

  it('mark every field a form can be sent without "(optional)", and only those (required ones are not marked)', () => {
    const offenders = files.flatMap((file) => {
      // A search or filter (method="get") is optional throughout; a select always holds one of its options.
      const text = readFileSync(file, 'utf8').replace(/<form[^>]*method="get"[\s\S]*?<\/form>/g, '');
      return [...text.matchAll(/<label for="([^"]+)">([\s\S]*?)<\/label>/g)].flatMap(([, id, label]) => {
        const control = controls(text).find((tag) => tag.includes(` id="${id}"`) && !tag.startsWith('<select'));
        if (!control || CONDITIONAL.includes(`${path.relative(VIEWS_ROOT, file)}#${id}`)) return [];
        const offender = [`${path.relative(VIEWS_ROOT, file)}: ${label}`];
        // A field of a list that is required for some entries ({{#if x}} required) is marked on the opposite condition.
        const requiredIf = /\{\{#if ([\w.]+)\}\}[^{]*\srequired\b/.exec(control)?.[1];
        if (requiredIf) return label.includes(`{{#unless ${requiredIf}}} (optional){{/unless}}`) ? [] : offender;
        const required = /\srequired\b/.test(control.replace(/\{\{[^}]*\}\}/g, ''));
        return required === label.includes('(optional)') ? offender : [];
      });
    });
    expect(offenders).toEqual([]);
    expect(files.filter((file) => readFileSync(file, 'utf8').includes('(required)')).map((f) => path.relative(VIEWS_ROOT, f))).toEqual([]);
  });

  it('register each partial once, by file name', () => {
    expect(discoverPartials()).toMatchObject({ csrf: 'pages/views/partials/csrf.hbs', 'site-header': 'pages/views/partials/site-header.hbs' });
  });
});
