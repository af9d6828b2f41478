import type { IncomingHttpHeaders } from 'node:http';

/**
 * The API's one rule for request bodies, applied to every route before parsing (README: Request
 * bodies). A request without a body is fine whatever it declares. A body is JSON when its
 * Content-Type is `application/json` (any case, optionally `; charset=utf-8`), or when the header is
 * absent or blank; any other type, a list of types or another charset is 415 `Unsupported content
 * type; send application/json`. GET and HEAD bodies are never read, so never judged.
 *
 * A route that takes another media type as well (a browser form) says so in its Fastify route config,
 * `@RouteConfig({ [BODY_MEDIA_TYPES]: ['application/x-www-form-urlencoded'] })`, and registers a parser
 * for it; its bodies of that type are then 'other' and left to that parser.
 */
export type BodyKind = 'none' | 'json' | 'other' | 'unsupported';

/** Route config key listing the media types a route accepts besides JSON. */
export const BODY_MEDIA_TYPES = 'bodyMediaTypes';

const BODYLESS_METHODS = new Set(['GET', 'HEAD']);
const UTF8 = new Set(['utf-8', 'utf8']);

export function requestBodyKind(method: string, headers: IncomingHttpHeaders, alsoAccepted: readonly string[] = []): BodyKind {
  if (BODYLESS_METHODS.has(method) || !hasBody(headers)) return 'none';
  const declared = headers['content-type'];
  if (declared === undefined || declared.trim() === '') return 'json';
  const [type, ...parameters] = declared.split(';');
  const mediaType = type.trim().toLowerCase();
  if (alsoAccepted.includes(mediaType)) return 'other';
  if (mediaType !== 'application/json') return 'unsupported';
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset' && !UTF8.has(value.trim().replace(/^"|"$/g, '').toLowerCase())) return 'unsupported';
  }
  return 'json';
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}
