import { HttpException } from '@nestjs/common';
import { classifyDependencyFailure, isUnstorableTextError } from './dependency-errors';
import { DomainError, DomainErrorKind } from './domain-error';
import { ErrorText } from './error-catalogue';

export interface ErrorResponse {
  status: number;
  body: { error: string };
  headers: Record<string, string>;
  /** True when the cause is ours (a bug or an outage) and must be logged with the request id. */
  log: boolean;
}

export const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  too_large: 413,
  url_too_long: 414,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
};

const RETRY_AFTER_SECONDS = '5';
/** A 429 clears as soon as one of the account's requests in flight finishes: retry almost at once. */
const TOO_MANY_RETRY_AFTER_SECONDS = '1';

/** Texts for errors raised by Fastify or Nest themselves (body parsing, limits), by status. */
const FRAMEWORK_TEXT: Record<number, string> = {
  400: ErrorText.badRequest,
  404: ErrorText.notFound,
  413: ErrorText.bodyTooLarge,
  415: ErrorText.unsupportedMediaType,
};

function respond(status: number, error: string, log = false, headers: Record<string, string> = {}): ErrorResponse {
  return { status, body: { error }, headers, log };
}

/**
 * Maps anything thrown while serving a request to the one envelope `{"error": "..."}`. Pure, so the
 * whole mapping is unit-tested; the global filter only writes what this returns.
 */
export function mapError(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    const status = STATUS_OF[error.kind];
    if (error.kind === 'unavailable') {
      return respond(status, ErrorText.serviceUnavailable, true, { 'Retry-After': RETRY_AFTER_SECONDS });
    }
    if (error.kind === 'unauthenticated') {
      return respond(status, error.message, false, { 'WWW-Authenticate': 'Basic realm="api"' });
    }
    if (error.kind === 'too_many_requests') {
      return respond(status, error.message, false, { 'Retry-After': error.retryAfterSeconds ? String(error.retryAfterSeconds) : TOO_MANY_RETRY_AFTER_SECONDS });
    }
    return respond(status, error.message, status >= 500);
  }
  if (isUnstorableTextError(error)) {
    // A field that reached SQL without the storable-text check: the client's input is at fault, so
    // 400, but it is logged so the missing check gets added.
    return respond(400, ErrorText.unstorableInput, true);
  }
  if (classifyDependencyFailure(error)) {
    return respond(503, ErrorText.serviceUnavailable, true, { 'Retry-After': RETRY_AFTER_SECONDS });
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status >= 400 && status < 500) return respond(status, FRAMEWORK_TEXT[status] ?? ErrorText.badRequest);
    return respond(500, ErrorText.internal, true);
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return respond(status, FRAMEWORK_TEXT[status] ?? ErrorText.badRequest);
  }
  return respond(500, ErrorText.internal, true);
}
