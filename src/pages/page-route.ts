import type { FastifyRequest } from 'fastify';

/**
 * Fastify route config of every page route (set by @PageController): marks the route for HTML error
 * pages, form parsing and the security headers (registerPages applies helmet's headers to page routes).
 */
export const PAGE_ROUTE_CONFIG = { page: true } as const;

/** Path prefixes of the JSON API: errors there are always the `{"error": "..."}` envelope. */
const API_PREFIXES = ['/v1', '/simple'];

export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`));
}

/** Route config of the public pages recipients open from a text (a short link, the opt-out page): their 404 speaks of the link. */
export const PUBLIC_LINK_ROUTE_CONFIG = { publicLink: true } as const;

export function isPublicLinkRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions?.config as { publicLink?: boolean } | undefined;
  return config?.publicLink === true;
}

/** Route config of a page route whose form may carry a file (`multipart/form-data`, up to the upload limit). */
export const UPLOAD_ROUTE_CONFIG = { uploads: true } as const;

export function acceptsUploads(request: FastifyRequest): boolean {
  const config = request.routeOptions?.config as { uploads?: boolean } | undefined;
  return config?.uploads === true;
}

export function isPageRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions?.config as { page?: boolean } | undefined;
  return config?.page === true;
}

/** An explicit ask for JSON (a script on a public page route) rather than a browser. */
function prefersJson(accept: string): boolean {
  return accept.includes('application/json') && !accept.includes('text/html');
}

/**
 * Whether an answer (in particular an error) should be an HTML page: never under /v1 or /simple; on
 * page routes unless the client asks for JSON; elsewhere (unknown paths) only for browsers, which send
 * `Accept: text/html`, so API clients keep the JSON 404.
 */
export function wantsHtml(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0];
  if (isApiPath(path)) return false;
  const accept = String(request.headers.accept ?? '');
  if (prefersJson(accept)) return false;
  if (isPageRoute(request)) return true;
  return accept.includes('text/html');
}
