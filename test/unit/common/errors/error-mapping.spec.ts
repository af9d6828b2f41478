import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import {
  ConflictError,
  DependencyUnavailableError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  OperationFailedError,
  TooManyRequestsError,
  UnauthenticatedError,
  UnprocessableError,
} from '../../../../src/common/errors/domain-error';
import { mapError } from '../../../../src/common/errors/error-mapping';

describe(mapError.name, () => {
  it.each([
    [new InvalidRequestError('number is required'), 400],
    [new UnauthenticatedError('Authentication required'), 401],
    [new ForbiddenError('No allowed senders found for this user'), 403],
    [new NotFoundError('List not found'), 404],
    [new ConflictError('Message is not in a scheduled state'), 409],
    [new UnprocessableError('Idempotency-Key was reused with a different request payload'), 422],
    [new TooManyRequestsError('Too many concurrent requests. Please wait.'), 429],
    [new OperationFailedError('Failed to cancel send', new Error('db')), 500],
  ])('maps %p to %i with its own text in the envelope', (error, status) => {
    const res = mapError(error);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: error.message });
  });

  it('adds WWW-Authenticate to 401s', () => {
    expect(mapError(new UnauthenticatedError('Authentication required')).headers).toEqual({ 'WWW-Authenticate': 'Basic realm="api"' });
  });

  it('answers an unavailable dependency 503 with Retry-After and the fixed text', () => {
    const res = mapError(new DependencyUnavailableError('redis'));
    expect(res).toMatchObject({ status: 503, body: { error: 'Service temporarily unavailable, please retry' }, headers: { 'Retry-After': '5' }, log: true });
  });

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a terminated pg connection', new Error('Connection terminated unexpectedly')],
    ['a pg admin shutdown', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a TypeORM QueryFailedError wrapping it', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '08006' }) })],
    ['ioredis without a connection', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
  ])('recognises %s as 503', (_name, error) => {
    expect(mapError(error).status).toBe(503);
  });

  it('maps framework 4xx errors to fixed texts', () => {
    expect(mapError(new PayloadTooLargeException()).body).toEqual({ error: 'Request body is too large' });
    expect(mapError(new HttpException('FST_ERR_CTP_BODY_TOO_LARGE', 413))).toMatchObject({ status: 413, body: { error: 'Request body is too large' } });
    expect(mapError(new NotFoundException('Cannot GET /x'))).toMatchObject({ status: 404, body: { error: 'Not found' } });
    expect(mapError(new BadRequestException('Unexpected token'))).toMatchObject({ status: 400, body: { error: 'Bad request' } });
  });

  it('hides anything unexpected behind a generic 500 that is logged', () => {
    const res = mapError(new TypeError('cannot read x of undefined at /src/secret.ts'));
    expect(res).toEqual({ status: 500, body: { error: 'Internal server error' }, headers: {}, log: true });
    expect(mapError('a string').status).toBe(500);
    expect(mapError(undefined).status).toBe(500);
  });

  it('does not log ordinary client errors', () => {
    expect(mapError(new InvalidRequestError('x')).log).toBe(false);
  });
});
