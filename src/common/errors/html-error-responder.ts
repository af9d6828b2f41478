import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorResponse } from './error-mapping';

/**
 * Answers errors as HTML pages for browsers on page routes. The pages layer provides it; the global
 * filter (here, low in common/) depends only on this contract and keeps the JSON envelope for the API.
 */
export abstract class HtmlErrorResponder {
  /** True when this request should get an HTML page rather than the `{"error": "..."}` envelope. */
  abstract wantsHtml(request: FastifyRequest): boolean;
  /** Writes the page (or, for 401, the redirect to sign-in). */
  abstract respond(request: FastifyRequest, reply: FastifyReply, response: ErrorResponse): Promise<void>;
}
