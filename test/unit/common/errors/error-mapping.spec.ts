import { QueryRunnerAlreadyReleasedError } from 'typeorm';
import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { DependencyUnavailableError } from '../../../../src/common/errors/domain-error';
import { CATALOGUE, Condition, failure, failureBecause } from '../../../../src/common/errors/error-catalogue';
import { mapError } from '../../../../src/common/errors/error-mapping';

describe(mapError.name, () => {
  it.each([
    [failure('required', 'number'), 400],
    [failure('authenticationRequired'), 401],
    [failure('noAllowedSenders'), 403],
    [failure('listNotFound'), 404],
    [failure('messageNotScheduled'), 409],
    [failure('idempotencyKeyReused'), 422],
    [failure('tooManyConcurrentRequests'), 429],
    [failureBecause(new Error('db'), 'failedToCancelSend'), 500],
  ])('maps %p to %i with its own text in the envelope', (error, status) => {
    const res = mapError(error);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: error.message });
  });

  it('adds WWW-Authenticate to 401s', () => {
    expect(mapError(failure('authenticationRequired')).headers).toEqual({ 'WWW-Authenticate': 'Basic realm="api"' });
  });

  it('adds Retry-After: 1 to 429s (a slot frees as soon as one request in flight finishes)', () => {
    expect(mapError(failure('tooManyConcurrentRequests'))).toEqual({
      status: 429,
      body: { error: 'Too many concurrent requests. Please wait.' },
      headers: { 'Retry-After': '1' },
      log: false,
    });
  });

  it('answers an unavailable dependency 503 with Retry-After and the fixed text', () => {
    const res = mapError(new DependencyUnavailableError('redis'));
    expect(res).toMatchObject({ status: 503, body: { error: 'Service temporarily unavailable, please retry' }, headers: { 'Retry-After': '5' }, log: true });
  });

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a terminated pg connection', new Error('Connection terminated unexpectedly')],
    ['a transaction whose connection TypeORM released after it failed', new QueryRunnerAlreadyReleasedError()],
    ['a pg admin shutdown', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a TypeORM QueryFailedError wrapping it', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '08006' }) })],
    ['ioredis without a connection', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    [
      'no listed PostgreSQL host accepting read-write sessions (a failover under way)',
      Object.assign(new Error('no host in DATABASE_URL accepts read-write sessions'), { code: '08001' }),
    ],
    [
      'a write on a server that has just become a standby',
      Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }) }),
    ],
  ])('recognises %s as 503', (_name, error) => {
    expect(mapError(error).status).toBe(503);
  });

  it('answers text PostgreSQL refused (a NUL that escaped the field checks) 400, logged so the check gets added', () => {
    const nul = Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' }) });
    expect(mapError(nul)).toEqual({ status: 400, body: { error: 'Request must not contain NUL characters or unpaired surrogates' }, headers: {}, log: true });
    expect(mapError(Object.assign(new Error('x'), { code: '22P05' })).status).toBe(400);
  });

  it('maps the statuses of what Node and the router refuse: 408, 414, 431', () => {
    expect(mapError(failure('requestTimeout'))).toMatchObject({ status: 408, body: { error: 'Request timed out' } });
    expect(mapError(failure('urlTooLong'))).toMatchObject({ status: 414, body: { error: 'Request URL is too long' } });
    expect(mapError(failure('headersTooLarge'))).toMatchObject({ status: 431, body: { error: 'Request headers are too large' } });
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
    expect(mapError(failure('required', 'x')).log).toBe(false);
  });

  it('names each error for its condition and answers every catalogue condition with a 4xx or 5xx and its text', () => {
    for (const condition of Object.keys(CATALOGUE) as Condition[]) {
      const entry = CATALOGUE[condition];
      const args = condition === 'methodNotAllowed' ? [['GET']] : ['x', 'y'];
      const error = typeof entry.text === 'string' ? failure(condition as never) : failure(condition as never, ...(args as never[]));
      expect(error.name).toBe(condition.charAt(0).toUpperCase() + condition.slice(1));
      const res = mapError(error);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body.error.length).toBeGreaterThan(0);
    }
    expect(failure('insufficientCredits')).toMatchObject({
      name: 'InsufficientCredits',
      condition: 'insufficientCredits',
      message: 'Insufficient credits to send the batch of messages',
    });
  });
});
