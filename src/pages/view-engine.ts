import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';

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
  return hbs;
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
