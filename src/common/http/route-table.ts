const METHOD_ORDER = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'] as const;

interface RouteEntry {
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * The paths the app serves and their methods, so a known path requested with the wrong method is
 * answered 405 with `Allow` (Fastify alone would say 404). Filled from Fastify's onRoute hook.
 */
export class RouteTable {
  private readonly routes = new Map<string, RouteEntry>();

  add(url: string, method: string | string[]): void {
    let entry = this.routes.get(url);
    if (!entry) {
      entry = { pattern: compile(url), methods: new Set() };
      this.routes.set(url, entry);
    }
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m.toUpperCase());
  }

  /** Methods of the first route whose path matches, in the order GET, POST, PATCH, DELETE; HEAD and OPTIONS never listed. */
  allowedMethods(path: string): string[] {
    const clean = path.split('?')[0];
    for (const entry of this.routes.values()) {
      if (entry.pattern.test(clean)) return METHOD_ORDER.filter((m) => entry.methods.has(m));
    }
    return [];
  }
}

function compile(url: string): RegExp {
  const body = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? paramPattern(segment) : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

/** `:name` matches any segment; `:name(^regex$)` (Fastify's constrained parameter) only what its regex does. */
function paramPattern(segment: string): string {
  const open = segment.indexOf('(');
  if (open === -1 || !segment.endsWith(')')) return '[^/]+';
  return `(?:${segment
    .slice(open + 1, -1)
    .replace(/^\^/, '')
    .replace(/\$$/, '')})`;
}
