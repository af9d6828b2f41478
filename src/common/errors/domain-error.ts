/**
 * What went wrong, in domain terms. Services throw these (built by `failure` from the catalogue, named for
 * their condition); only the global filter turns a kind into an HTTP status (error-mapping.ts).
 */
export type DomainErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'payment_required' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'method_not_allowed' // 405
  | 'request_timeout' // 408
  | 'conflict' // 409
  | 'too_large' // 413
  | 'url_too_long' // 414
  | 'unsupported_media_type' // 415
  | 'unprocessable' // 422
  | 'too_many_requests' // 429
  | 'headers_too_large' // 431
  | 'internal' // 500, with a text the interface defines (e.g. a rolled-back cancellation)
  | 'unavailable'; // 503

export class DomainError extends Error {
  /** A 429's wait, when the condition knows it (e.g. an hourly throttle); otherwise Retry-After is 1. */
  retryAfterSeconds?: number;

  constructor(
    /** The catalogue entry: what happened, e.g. `insufficientCredits`. */
    readonly condition: string,
    readonly kind: DomainErrorKind,
    message: string,
    /** The underlying failure of an `internal` error: logged, never sent. */
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = condition.charAt(0).toUpperCase() + condition.slice(1);
  }

  /** The same error, telling clients how long to wait before retrying. */
  retryAfter(seconds: number): this {
    this.retryAfterSeconds = Math.max(1, Math.ceil(seconds));
    return this;
  }
}

/** PostgreSQL or Redis cannot be reached; answered 503 with Retry-After. */
export class DependencyUnavailableError extends DomainError {
  constructor(
    readonly dependency: 'postgres' | 'redis',
    cause?: unknown,
  ) {
    super('dependencyUnavailable', 'unavailable', `${dependency} unavailable`, cause);
  }
}
