import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Handlebars, { type HelperOptions } from 'handlebars';

/**
 * Templates live beside the code that renders them (`src/<folder>/views/`), so one root serves every
 * folder: `src/` under ts-jest and development, `dist/src/` in production (the build copies them).
 * Template names are paths under it without the extension: `dashboard/views/overview`.
 */
export const VIEWS_ROOT = path.resolve(__dirname, '..');
export const LAYOUT = 'pages/views/layout.hbs';
export const ERROR_TEMPLATE = 'pages/views/error';
export const ASSETS_DIR = path.join(__dirname, 'assets');

/** An isolated Handlebars with our few helpers. `{{ }}` escapes HTML; templates never use `{{{ }}}` except the layout's body. */
export function createHandlebars(): typeof Handlebars {
  const hbs = Handlebars.create();
  hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hbs.registerHelper('not', (a: unknown) => !a);
  hbs.registerHelper('or', (...args: unknown[]) => args.slice(0, -1).some(Boolean));
  hbs.registerHelper('and', (...args: unknown[]) => args.slice(0, -1).every(Boolean));
  hbs.registerHelper('includes', (list: unknown, value: unknown) => Array.isArray(list) && list.includes(value));
  hbs.registerHelper('plural', (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`);
  hbs.registerHelper('concat', (...args: unknown[]) => args.slice(0, -1).join(''));
  hbs.registerHelper('fieldAria', (name: unknown, options: HelperOptions) => fieldAria(hbs, name, options));
  return hbs;
}

/** The id of the form error's text (pages/views/partials/form-error.hbs): one error is shown at a time. */
export const FORM_ERROR_ID = 'form-error';

/**
 * `{{fieldAria "number" describedby="hint-id" form=scope}}` in a field's tag: its aria-describedby (its hint),
 * and when the page's error is about this field (the model's errorField, and errorForm when a page repeats a
 * field in several forms: form-error.ts), aria-invalid="true" with the error's text read first.
 */
function fieldAria(hbs: typeof Handlebars, name: unknown, options: HelperOptions): Handlebars.SafeString {
  const root = (options.data as { root?: Record<string, unknown> } | undefined)?.root ?? {};
  const { describedby, form } = options.hash as { describedby?: unknown; form?: unknown };
  const invalid = root.errorField !== undefined && root.errorField === name && (form === undefined || root.errorForm === undefined || String(form) === String(root.errorForm));
  const ids = [invalid ? FORM_ERROR_ID : '', typeof describedby === 'string' ? describedby : ''].filter(Boolean).join(' ');
  const attributes = [invalid ? 'aria-invalid="true"' : '', ids ? `aria-describedby="${hbs.escapeExpression(ids)}"` : ''].filter(Boolean);
  // Written straight after the tag's last attribute, `value="…"{{fieldAria …}}>`, like a template's `{{#if x}} x{{/if}}`.
  return new hbs.SafeString(attributes.map((a) => ` ${a}`).join(''));
}

/** Every `src/<folder>/views/partials/<name>.hbs`, registered as `<name>` (names are unique across folders). */
export function discoverPartials(root = VIEWS_ROOT): Record<string, string> {
  const partials: Record<string, string> = {};
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = path.join(root, folder.name, 'views', 'partials');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.hbs')) continue;
      const name = file.slice(0, -'.hbs'.length);
      if (partials[name]) throw new Error(`two partials are named ${name}: ${partials[name]} and ${folder.name}/views/partials/${file}`);
      partials[name] = `${folder.name}/views/partials/${file}`;
    }
  }
  return partials;
}
