import { lastValueFrom, of, throwError } from 'rxjs';
import { failure } from '../../../src/common/errors/error-catalogue';
import { AppConfig } from '../../../src/config/app-config';
import { requestFingerprint } from '../../../src/idempotency/canonical-json';
import { IdempotencyInterceptor } from '../../../src/idempotency/idempotency.interceptor';
import type { IdempotencyRepository } from '../../../src/idempotency/idempotency.repository';
import { IdempotencyKeyTaken, IdempotencyService } from '../../../src/idempotency/idempotency.service';
import { aRequest, FakeCallHandler, FakeReply, FakeRequest, httpContext } from '../fakes/fake-http';
import { FakeIdempotencyRepository } from '../fakes/fake-idempotency-repository';

class MessagesController {
  send(): void {}
}
const route = { controller: MessagesController, handler: MessagesController.prototype.send };
const fingerprintOf = (b: unknown) => requestFingerprint('MessagesController.send', b);

const caller = { accountId: 1, apiKeyId: 7, isTest: false };
const body = { messages: [{ to: '0412345678', message: 'Hi', sender: 'Acme' }], max_parts: 2 };
const FRESH = { status: 'complete', send_id: 501 };
const STORED = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"status":"complete","send_id":400}' };

/**
 * The interceptor with the real IdempotencyService (key length, fingerprints, the 422 comparison) over a
 * fake repository: the records are the only thing faked.
 */
function setup(handler = new FakeCallHandler(() => of(FRESH))) {
  const repo = new FakeIdempotencyRepository();
  const interceptor = new IdempotencyInterceptor(new IdempotencyService(repo as unknown as IdempotencyRepository, new AppConfig()));
  const reply = new FakeReply();
  const run = (request: FakeRequest) => lastValueFrom(interceptor.intercept(httpContext(request, reply, route), handler));
  return { repo, interceptor, reply, handler, run };
}

const withKey = (key: string | string[], overrides: Partial<FakeRequest> = {}) => aRequest({ headers: { 'idempotency-key': key }, body, caller, ...overrides });

describe(IdempotencyInterceptor.name, () => {
  describe('requests without a key', () => {
    it.each([
      ['no Idempotency-Key header', aRequest({ body, caller })],
      ['an empty Idempotency-Key', withKey('')],
      ['no caller (a public route)', withKey('k-1', { caller: undefined })],
    ])('passes a request with %s straight to the handler, looking nothing up', async (_, request) => {
      const { run, repo, handler, reply } = setup();

      await expect(run(request)).resolves.toBe(FRESH);

      expect(handler.calls).toBe(1);
      expect(repo.lookups).toEqual([]);
      expect(request.idempotency).toBeUndefined();
      expect(reply.headers).toEqual({});
    });
  });

  describe('a new key', () => {
    it('hands the key to the operation as a claim scoped by API key, with the body’s fingerprint', async () => {
      const { run, repo, reply } = setup();
      const request = withKey('k-1');

      await expect(run(request)).resolves.toBe(FRESH);

      expect(repo.lookups).toEqual([{ apiKeyId: 7, key: 'k-1' }]);
      expect(request.idempotency).toEqual({ apiKeyId: 7, key: 'k-1', fingerprint: fingerprintOf(body) });
      expect(reply.headers).toEqual({});
    });

    it('uses the first of repeated Idempotency-Key headers', async () => {
      const { run, repo } = setup();

      await run(withKey(['k-1', 'k-2']));

      expect(repo.lookups).toEqual([{ apiKeyId: 7, key: 'k-1' }]);
    });

    it('does not replay another API key’s response for the same key', async () => {
      const { run, repo, handler } = setup();
      repo.store(8, 'k-1', { ...STORED, fingerprint: fingerprintOf(body) });

      await expect(run(withKey('k-1'))).resolves.toBe(FRESH);
      expect(handler.calls).toBe(1);
    });

    it('accepts a key of 255 characters and refuses one of 256 with idempotencyKeyTooLong', async () => {
      const { run, interceptor, handler, reply } = setup();

      await expect(run(withKey('k'.repeat(255)))).resolves.toBe(FRESH);
      expect(() => interceptor.intercept(httpContext(withKey('k'.repeat(256)), reply, route), handler)).toThrow(
        expect.objectContaining({ condition: 'idempotencyKeyTooLong', kind: 'invalid', message: 'Idempotency-Key must be at most 255 characters' }),
      );
      expect(handler.calls).toBe(1);
    });
  });

  describe('a repeated key', () => {
    it('replays the stored response without running the handler: Idempotency-Replay true, its status, content type and bytes', async () => {
      const { run, repo, handler, reply } = setup();
      repo.store(7, 'k-1', { ...STORED, fingerprint: fingerprintOf(body) });

      await expect(run(withKey('k-1'))).resolves.toBe(STORED.body);

      expect(handler.calls).toBe(0);
      expect(reply.headers).toEqual({ 'Idempotency-Replay': 'true' });
      expect(reply.statusCode).toBe(200);
      expect(reply.contentType).toBe('application/json; charset=utf-8');
    });

    it('recognises the same body with its keys in another order', async () => {
      const { run, repo, handler } = setup();
      repo.store(7, 'k-1', { ...STORED, fingerprint: fingerprintOf(body) });

      await expect(run(withKey('k-1', { body: { max_parts: 2, messages: [{ sender: 'Acme', message: 'Hi', to: '0412345678' }] } }))).resolves.toBe(STORED.body);
      expect(handler.calls).toBe(0);
    });

    it('answers a key reused with a different body with idempotencyKeyReused (422), running nothing', async () => {
      const { run, repo, handler, reply } = setup();
      repo.store(7, 'k-1', { ...STORED, fingerprint: fingerprintOf(body) });

      await expect(run(withKey('k-1', { body: { ...body, max_parts: 3 } }))).rejects.toMatchObject({
        condition: 'idempotencyKeyReused',
        name: 'IdempotencyKeyReused',
        kind: 'unprocessable',
        message: 'Idempotency-Key was reused with a different request payload',
      });
      expect(handler.calls).toBe(0);
      expect(reply.headers).toEqual({});
    });

    it('answers a key reused with the same body on another operation with idempotencyKeyReused (422), never the other answer', async () => {
      const { run, repo, handler } = setup();
      repo.store(7, 'k-1', { ...STORED, fingerprint: requestFingerprint('CreditPurchasesController.purchase', body) });

      await expect(run(withKey('k-1'))).rejects.toMatchObject({ condition: 'idempotencyKeyReused' });
      expect(handler.calls).toBe(0);
    });
  });

  describe('a key claimed by a concurrent request', () => {
    it('replays the winner’s response when the operation finds the key taken', async () => {
      const repo = new FakeIdempotencyRepository();
      const loser = new FakeCallHandler(() => {
        // The winner committed while this request's claim waited on its row.
        repo.store(7, 'k-1', { ...STORED, fingerprint: fingerprintOf(body) });
        return throwError(() => new IdempotencyKeyTaken());
      });
      const interceptor = new IdempotencyInterceptor(new IdempotencyService(repo as unknown as IdempotencyRepository, new AppConfig()));
      const reply = new FakeReply();

      await expect(lastValueFrom(interceptor.intercept(httpContext(withKey('k-1'), reply, route), loser))).resolves.toBe(STORED.body);

      expect(repo.lookups).toEqual([
        { apiKeyId: 7, key: 'k-1' },
        { apiKeyId: 7, key: 'k-1' },
      ]);
      expect(reply.headers).toEqual({ 'Idempotency-Replay': 'true' });
      expect(reply.statusCode).toBe(200);
    });

    it('fails loudly when the winner’s record cannot be found after all', async () => {
      const { run } = setup(new FakeCallHandler(() => throwError(() => new IdempotencyKeyTaken())));

      await expect(run(withKey('k-1'))).rejects.toThrow('idempotency record vanished after a concurrent claim');
    });

    it('lets every other error of the handler through, without looking the key up again', async () => {
      const refusal = failure('insufficientCredits');
      const { run, repo } = setup(new FakeCallHandler(() => throwError(() => refusal)));

      await expect(run(withKey('k-1'))).rejects.toBe(refusal);
      expect(repo.lookups).toHaveLength(1);
    });
  });
});
