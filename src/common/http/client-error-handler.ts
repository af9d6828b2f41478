import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { failure } from '../errors/error-catalogue';
import { DomainError } from '../errors/domain-error';
import { mapError } from '../errors/error-mapping';

/**
 * What Node's HTTP parser refuses never reaches a route, so the error filter never sees it: an unknown
 * method (`FOO /v1/messages`), broken chunking, a space in the target, a request line or headers over
 * the 16 KB limit, a client too slow to send its headers. This answers those in the same envelope, with
 * the status that names the problem, then closes the connection (the parser cannot resume).
 */
export type AllowedMethods = (path: string) => string[];

/** Node leaves the bytes it had read on the error; the request line is all we look at. */
type ClientError = Error & { code?: string; rawPacket?: unknown };

/** The longest request line we say "headers" rather than "URL" for, when the 16 KB limit is hit. */
const LONG_REQUEST_LINE = 8 * 1024;

export interface ClientErrorAnswer {
  error: DomainError;
  headers?: Record<string, string>;
}

export function clientErrorFor(err: ClientError, allowedMethods: AllowedMethods): ClientErrorAnswer {
  return { error: classify(err, allowedMethods), headers: allowHeader(err, allowedMethods) };
}

function allowHeader(err: ClientError, allowedMethods: AllowedMethods): Record<string, string> | undefined {
  const path = err.code === 'HPE_INVALID_METHOD' ? requestPath(err.rawPacket) : null;
  const allowed = path === null ? [] : allowedMethods(path);
  return allowed.length > 0 ? { Allow: allowed.join(', ') } : undefined;
}

function classify(err: ClientError, allowedMethods: AllowedMethods): DomainError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineIsLong(err.rawPacket) ? failure('urlTooLong') : failure('headersTooLarge');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return failure('bodyTooLarge');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return failure('requestTimeout');
    case 'HPE_INVALID_METHOD': {
      const path = requestPath(err.rawPacket);
      if (path === null) return failure('malformedRequest');
      const allowed = allowedMethods(path);
      return allowed.length > 0 ? failure('methodNotAllowed', allowed) : failure('notFound');
    }
    default:
      return failure('malformedRequest');
  }
}

function firstLine(raw: unknown): { text: string; complete: boolean } {
  if (!Buffer.isBuffer(raw)) return { text: '', complete: false };
  const end = raw.indexOf('\n');
  return { text: raw.subarray(0, end < 0 ? raw.length : end).toString('latin1'), complete: end >= 0 };
}

function requestLineIsLong(raw: unknown): boolean {
  const line = firstLine(raw);
  // Without the end of the request line in what was read, the target alone filled the limit.
  return !line.complete || line.text.length > LONG_REQUEST_LINE;
}

function requestPath(raw: unknown): string | null {
  const match = /^\S+ (\/\S*) HTTP\/\d\.\d\r?$/.exec(firstLine(raw).text);
  return match ? match[1] : null;
}

/**
 * The raw HTTP/1.1 response for a domain error (nothing else can be written on a socket the parser gave up on).
 * It carries an X-Request-Id like every answer: always one made for it, since the request's own headers
 * are what the parser could not read.
 */
export function rawErrorResponse({ error, headers: more }: ClientErrorAnswer, requestId: string): string {
  const { status, body, headers } = mapError(error);
  const json = JSON.stringify(body);
  const extra = Object.entries({ ...headers, ...more, 'X-Request-Id': requestId })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n${extra}Connection: close\r\n\r\n${json}`
  );
}

/** The server's `clientError` listener (Fastify's `clientErrorHandler` option). */
export function envelopeClientErrorHandler(allowedMethods: AllowedMethods) {
  return (err: ClientError, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // As Node itself does: write only when no response on this connection has started, or the peer
    // would read our bytes as part of it.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      socket.end(rawErrorResponse(clientErrorFor(err, allowedMethods), randomUUID()));
    } else {
      socket.destroy();
    }
  };
}
