import type { FastifyReply } from 'fastify';
import { DomainError } from './domain-error';
import { failure } from './error-catalogue';
import { mapError } from './error-mapping';

/**
 * Errors Fastify's router raises before any route runs (it calls these "framework errors"): a path
 * whose percent-encoding does not decode, or a path parameter over the router's length limit. Neither
 * names a resource that can exist.
 */
export function frameworkError(error: Error & { code?: string }): DomainError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return failure('notFound');
  return failure('malformedRequest');
}

/** Writes an error in the envelope on a reply the Nest filter never sees. */
export function sendEnvelope(reply: FastifyReply, error: unknown): void {
  const { status, body, headers } = mapError(error);
  void reply.code(status).headers(headers).type('application/json; charset=utf-8').send(JSON.stringify(body));
}
