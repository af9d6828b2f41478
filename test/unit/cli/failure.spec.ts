import { UsageError } from '../../../src/cli/cli-args';
import { EXIT } from '../../../src/cli/command';
import { CommandError } from '../../../src/cli/command-services';
import { cliFailure } from '../../../src/cli/failure';
import { DependencyUnavailableError } from '../../../src/common/errors/domain-error';
import { failure } from '../../../src/common/errors/error-catalogue';
import { ConfigError } from '../../../src/config/app-config';
import { parseDatabaseUrl } from '../../../src/database/database-url';
import { NoPrimaryError } from '../../../src/database/primary-locator';

const AT = { databaseUrl: 'postgres://operator:pg-secret@db.internal:5499/sms', redisUrl: 'redis://:redis-secret@cache.internal:6399/2' };

function refused(address: string, port: number): Error {
  return Object.assign(new Error(`connect ECONNREFUSED ${address}:${port}`), { code: 'ECONNREFUSED', address, port });
}

describe(cliFailure.name, () => {
  it('exits 2 for a usage error only', () => {
    expect(cliFailure(new UsageError('--label must be at most 100 characters'), AT)).toEqual({ line: '--label must be at most 100 characters', exitCode: EXIT.usage });
    expect(EXIT).toEqual({ ok: 0, failed: 1, usage: 2 });
  });

  it.each([
    [failure('accountNotFound', 12), 'Account 12 not found'],
    [failure('userEmailNotFound', 'a@b.au'), 'No user with email a@b.au'],
    [failure('apiKeyNotFound', 'api_x'), 'No active API key with username api_x'],
    [failure('carrierNotFound', 'telstra'), 'no carrier named telstra'],
    [failure('routeCarrierNotFound', 'telstra'), 'no carrier named telstra (carrier:list; the SMPP_* carrier is env)'],
    [failure('routeNotFound', 3), 'no route with id 3'],
    [failure('carrierNameTaken', 'optus'), 'a carrier named optus already exists'],
    [new ConfigError('CARRIER_SECRET_KEY is not set'), 'CARRIER_SECRET_KEY is not set'],
    [new CommandError('run db:migrate first'), 'run db:migrate first'],
  ])('exits 1 for anything else, not found of every kind alike: %s', (err, line) => {
    expect(cliFailure(err, AT)).toEqual({ line, exitCode: EXIT.failed });
  });

  it('names the Redis it could not reach by host and port, never its password', () => {
    const { line, exitCode } = cliFailure(new DependencyUnavailableError('redis', new Error("Stream isn't writeable and enableOfflineQueue options is false")), AT);
    expect([line, exitCode]).toEqual(['Redis at cache.internal:6399 is not reachable', 1]);
    expect(cliFailure(new Error('Connection is closed.'), { ...AT, redisUrl: 'redis://127.0.0.1' }).line).toBe('Redis at 127.0.0.1:6379 is not reachable');
  });

  it('names the PostgreSQL it could not reach by host and port, with why, never the user, password or URL', () => {
    expect(cliFailure(refused('10.0.0.9', 5499), AT)).toEqual({ line: 'PostgreSQL at db.internal:5499 is not reachable (ECONNREFUSED)', exitCode: 1 });
    const wrapped = new DependencyUnavailableError('postgres', Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' }));
    expect(cliFailure(wrapped, AT).line).toBe('PostgreSQL at db.internal:5499 is not reachable (ENOTFOUND)');
    const starting = Object.assign(new Error('the database system is starting up'), { code: '57P03' });
    expect(cliFailure(starting, AT).line).toBe('PostgreSQL at db.internal:5499 is not reachable (the database system is starting up)');
    const pair = { ...AT, databaseUrl: 'postgres://operator:pg-secret@h1:5432,[::1]:5433/sms' };
    expect(cliFailure(new Error('Connection terminated unexpectedly'), pair).line).toBe('PostgreSQL at h1:5432, [::1]:5433 is not reachable');
    for (const err of [refused('10.0.0.9', 5499), wrapped, starting]) expect(cliFailure(err, AT).line).not.toMatch(/secret|operator|postgres:\/\//);
  });

  it("keeps the locator's text, which names every host and what each answered", () => {
    const err = new NoPrimaryError('read-write', ['h1:5432 ECONNREFUSED', 'h2:5432 is read-only']);
    expect(cliFailure(err, AT).line).toBe('no host in DATABASE_URL accepts read-write sessions (h1:5432 ECONNREFUSED; h2:5432 is read-only)');
    expect(parseDatabaseUrl(AT.databaseUrl).hosts).toEqual([{ host: 'db.internal', port: 5499 }]);
  });

  it('before the configuration is read, says the error as it is', () => {
    expect(cliFailure(refused('127.0.0.1', 5432))).toEqual({ line: 'connect ECONNREFUSED 127.0.0.1:5432', exitCode: 1 });
  });
});
