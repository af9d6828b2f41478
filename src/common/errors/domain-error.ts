/**
 * What went wrong, in domain terms. Services throw these; only the global filter turns a kind into an
 * HTTP status (error-mapping.ts), so services never speak HTTP.
 */
export type DomainErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'payment_required' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'unprocessable' // 422
  | 'too_many_requests' // 429
  | 'internal' // 500, with a text the interface defines (e.g. a rolled-back cancellation)
  | 'unavailable'; // 503

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidRequestError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class UnprocessableError extends DomainError {
  constructor(message: string) {
    super('unprocessable', message);
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(message: string) {
    super('too_many_requests', message);
  }
}

/** A failure the interface names with its own 500 text; the cause is logged, never sent. */
export class OperationFailedError extends DomainError {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super('internal', message);
  }
}

/** PostgreSQL or Redis cannot be reached; answered 503 with Retry-After. */
export class DependencyUnavailableError extends DomainError {
  constructor(
    readonly dependency: 'postgres' | 'redis',
    readonly cause?: unknown,
  ) {
    super('unavailable', `${dependency} unavailable`);
  }
}
