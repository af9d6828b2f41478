import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';

/**
 * `docs/` of the repository: two levels up from `src/guides` (development, tests), three from
 * `dist/src/guides` (a build; the Docker image copies docs/ beside dist/).
 */
export function findDocsDir(from = __dirname): string {
  for (const candidate of [path.resolve(from, '../../docs'), path.resolve(from, '../../../docs')]) {
    if (existsSync(path.join(candidate, 'webhooks.md'))) return candidate;
  }
  throw new Error(`no docs/ directory found above ${from}`);
}

export interface GuideSummary {
  /** The URL name: the file name without `.md`. */
  name: string;
  title: string;
}

export interface RenderedGuide extends GuideSummary {
  html: string;
}

const GUIDE_NAME = /^[a-z0-9][a-z0-9-]*$/;
/** The repository's own README.md and CHANGELOG.md, served beside the guides. */
const ROOT_FILES = ['readme', 'changelog'];
/** Files a guide links to that are served as they are (the signature recipes). */
const RAW_FILE = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9.-]*\.(mjs|js|py|php|txt)$/;

/** GitHub's heading anchors, which the guides' links use: lowercase, punctuation dropped, spaces to dashes. */
export function headingAnchor(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Where a link in a guide points once served: another guide (`x.md#a`) becomes `/guides/x#a`, README and
 * CHANGELOG `/guides/readme` and `/guides/changelog`, a recipe file `/guides/files/<dir>/<file>`; anchors
 * and absolute URLs stay. `fromRoot`: the link is written from the repository's root (README, CHANGELOG).
 */
export function servedHref(href: string, fromRoot = false): string {
  if (/^([a-z]+:|#|\/)/i.test(href)) return href;
  const [written, anchor] = href.split('#');
  const suffix = anchor ? `#${anchor}` : '';
  const file = fromRoot ? (written.startsWith('docs/') ? written.slice('docs/'.length) : `../${written}`) : written;
  const normalised = path.posix.normalize(file);
  const root = /^\.\.\/(README|CHANGELOG)\.md$/.exec(normalised);
  if (root) return `/guides/${root[1].toLowerCase()}${suffix}`;
  const guide = /^([a-z0-9-]+)\.md$/.exec(normalised);
  if (guide) return `/guides/${guide[1]}${suffix}`;
  if (RAW_FILE.test(normalised)) return `/guides/files/${normalised}${suffix}`;
  return href;
}

/**
 * The guides in docs/ (and README) rendered as pages. Raw HTML in the Markdown is escaped, never passed
 * through (html: false), so a page's only markup is what markdown-it writes.
 */
export class GuideLibrary {
  private readonly md: MarkdownIt.MarkdownIt;

  constructor(private readonly docsDir: string) {
    this.md = new MarkdownIt({ html: false, linkify: false, typographer: false });
    const defaultLinkOpen: MarkdownIt.RendererRule = this.md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
    this.md.renderer.rules.link_open = (tokens, idx, options, env: MarkdownIt.Env | undefined, self) => {
      const href = tokens[idx].attrGet('href');
      if (href !== null) tokens[idx].attrSet('href', servedHref(String(href), env?.fromRoot === true));
      return defaultLinkOpen(tokens, idx, options, env, self);
    };
    this.md.renderer.rules.heading_open = (tokens, idx, options, _env, self) => {
      const inline = tokens[idx + 1];
      if (inline?.type === 'inline')
        tokens[idx].attrSet(
          'id',
          headingAnchor(
            inline.children
              ?.filter((t) => t.type === 'text' || t.type === 'code_inline')
              .map((t) => t.content)
              .join('') ?? inline.content,
          ),
        );
      return self.renderToken(tokens, idx, options);
    };
  }

  /** Every guide with its title (its first heading), README and CHANGELOG first. */
  list(): GuideSummary[] {
    const names = readdirSync(this.docsDir)
      .filter((f) => f.endsWith('.md') && statSync(path.join(this.docsDir, f)).isFile())
      .map((f) => f.slice(0, -3))
      .filter((name) => GUIDE_NAME.test(name) && !ROOT_FILES.includes(name))
      .sort();
    return [...ROOT_FILES, ...names].flatMap((name) => {
      const source = this.source(name);
      return source === null ? [] : [{ name, title: titleOf(source) }];
    });
  }

  /** A guide rendered, or null when there is none by that name. */
  render(name: string): RenderedGuide | null {
    const source = this.source(name);
    if (source === null) return null;
    // A code block scrolls sideways on a phone: keyboard users must be able to reach it (tabindex).
    const html = this.md.render(stripComments(source), { fromRoot: ROOT_FILES.includes(name) }).replaceAll('<pre>', '<pre tabindex="0">');
    return { name, title: titleOf(source), html };
  }

  /** A file a guide links to (a recipe), or null. */
  rawFile(relative: string): { body: Buffer; contentType: string } | null {
    if (!RAW_FILE.test(relative)) return null;
    const file = path.join(this.docsDir, relative);
    if (!existsSync(file) || !statSync(file).isFile()) return null;
    return { body: readFileSync(file), contentType: 'text/plain; charset=utf-8' };
  }

  private source(name: string): string | null {
    if (ROOT_FILES.includes(name)) {
      const file = path.join(this.docsDir, '..', `${name.toUpperCase()}.md`);
      return existsSync(file) ? readFileSync(file, 'utf8') : null;
    }
    if (!GUIDE_NAME.test(name)) return null;
    const file = path.join(this.docsDir, `${name}.md`);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  }
}

function titleOf(markdown: string): string {
  return /^# +(.+)$/m.exec(markdown)?.[1].trim() ?? 'Guide';
}

/** HTML comments (the README's test markers) are for the tests, not the reader. */
function stripComments(markdown: string): string {
  return markdown.replace(/<!--[\s\S]*?-->\n?/g, '');
}
