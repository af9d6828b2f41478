import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { CarrierSecret } from '../../src/carriers/carrier-secret';
import { runCliWithInput } from '../support/run-cli';

// Each CLI call is a process of its own; on a loaded machine a run of them takes more than the default 30 s.
jest.setTimeout(240_000);

const OLD = randomBytes(32).toString('base64');
const NEW = randomBytes(32).toString('hex');
const PASSWORDS: Record<string, string> = { optus: 'optus-pw-1', telstra: 'telstra-pw-2' };

interface Row {
  name: string;
  password_sealed: Buffer;
  updated_at: Date;
}

describe('carrier:rekey', () => {
  let db: Client;
  const rows = async () => (await db.query<Row>(`SELECT name, password_sealed, updated_at FROM carriers ORDER BY id`)).rows;
  const version = async () => Number((await db.query(`SELECT version FROM carrier_settings_version`)).rows[0].version);
  const rekey = (input: string | undefined, env: Record<string, string>, ...args: string[]) => runCliWithInput(input, env, 'carrier:rekey', ...args);
  const noSecretIn = (...outs: string[]) => {
    for (const out of outs) for (const secret of [OLD, NEW, ...Object.values(PASSWORDS)]) expect(out).not.toContain(secret);
  };

  beforeAll(async () => {
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    for (const [name, password] of Object.entries(PASSWORDS)) {
      const res = await runCliWithInput(`${password}\n`, { CARRIER_SECRET_KEY: OLD }, 'carrier:add', '--name', name, '--host', 'h', '--system-id', 's', '--password-stdin');
      expect(res.code).toBe(0);
    }
    // A row written by hand with no password: nothing to open or reseal.
    await db.query(`INSERT INTO carriers (name, host, port, system_id, password_sealed, binds, submit_window, tps_per_bind) VALUES ('bare', 'h', 2775, 's', '', 1, 1, 0)`);
  });
  afterAll(() => db.end());

  it.each([
    ['without an old key', 2, undefined, { CARRIER_SECRET_KEY: NEW }, [], 'error: the old key is required: --old-key-stdin or --old-key-env VAR\n'],
    [
      'with the old key both ways',
      2,
      OLD,
      { CARRIER_SECRET_KEY: NEW, OLD_KEY: OLD },
      ['--old-key-stdin', '--old-key-env', 'OLD_KEY'],
      'error: give the old key by one of --old-key-stdin or --old-key-env\n',
    ],
    [
      'with --old-key-env naming an unset variable',
      2,
      undefined,
      { CARRIER_SECRET_KEY: NEW },
      ['--old-key-env', 'NO_SUCH_VAR'],
      'error: --old-key-env NO_SUCH_VAR: that environment variable is not set\n',
    ],
    [
      'with an old key that is not 32 bytes',
      2,
      `${OLD.slice(0, 20)}\n`,
      { CARRIER_SECRET_KEY: NEW },
      ['--old-key-stdin'],
      'error: the old key must be 32 bytes as 64 hex digits or 44 characters of base64 (openssl rand -base64 32)\n',
    ],
    ['without CARRIER_SECRET_KEY', 1, `${OLD}\n`, {}, ['--old-key-stdin'], expect.stringContaining('error: CARRIER_SECRET_KEY is not set')],
    [
      'with an old key that opens none of the passwords',
      1,
      `${randomBytes(32).toString('hex')}\n`,
      { CARRIER_SECRET_KEY: NEW },
      ['--old-key-stdin'],
      'error: the old key does not open the stored passwords of carriers optus, telstra: nothing was resealed\n',
    ],
    // 2: the command line is wrong; 1: the configuration, or a key that does not open what is stored.
  ])('refuses %s with exit %d, printing no key, and writes nothing', async (_case, code, input, env, args, message) => {
    const before = [await rows(), await version()];
    const res = await rekey(input, env, ...args);
    expect([res.code, res.stdout, res.stderr]).toEqual([code, '', message]);
    noSecretIn(res.stderr);
    expect([await rows(), await version()]).toEqual(before);
  });

  it('refuses when the old key does not open one of the passwords, naming it, and reseals none', async () => {
    const other = CarrierSecret.fromKeyText(randomBytes(32).toString('hex'));
    const [, telstra] = await rows();
    await db.query(`UPDATE carriers SET password_sealed = $1 WHERE name = 'telstra'`, [other.seal(PASSWORDS.telstra)]);
    const before = [await rows(), await version()];
    const res = await rekey(`${OLD}\n`, { CARRIER_SECRET_KEY: NEW }, '--old-key-stdin');
    expect([res.code, res.stdout, res.stderr]).toEqual([1, '', 'error: the old key does not open the stored password of carrier telstra: nothing was resealed\n']);
    expect([await rows(), await version()]).toEqual(before);
    await db.query(`UPDATE carriers SET password_sealed = $1 WHERE name = 'telstra'`, [telstra.password_sealed]);
  });

  it('reseals every stored password under CARRIER_SECRET_KEY in one transaction, prints how many, and moves what workers watch', async () => {
    const before = await rows();
    const versionBefore = await version();
    const res = await rekey(undefined, { CARRIER_SECRET_KEY: NEW, OLD_CARRIER_SECRET_KEY: OLD }, '--old-key-env', 'OLD_CARRIER_SECRET_KEY');
    expect([res.code, res.stderr, res.json]).toEqual([0, '', { resealed: 2 }]);
    noSecretIn(res.stdout);

    const after = await rows();
    for (const name of Object.keys(PASSWORDS)) {
      const [was, now] = [before, after].map((list) => list.find((r) => r.name === name)!);
      expect(CarrierSecret.fromKeyText(NEW).open(now.password_sealed)).toBe(PASSWORDS[name]);
      expect(CarrierSecret.fromKeyText(OLD).opens(now.password_sealed)).toBe(false);
      expect(now.updated_at.getTime()).toBeGreaterThan(was.updated_at.getTime());
    }
    expect(after.find((r) => r.name === 'bare')).toEqual(before.find((r) => r.name === 'bare'));
    expect(await version()).toBe(versionBefore + 1); // one statement: the workers reload once

    // The new key is now the one a new password must be sealed under.
    const stale = await runCliWithInput('x\n', { CARRIER_SECRET_KEY: OLD }, 'carrier:update', '--name', 'optus', '--password-stdin');
    expect([stale.code, stale.stderr]).toEqual([1, expect.stringContaining('CARRIER_SECRET_KEY does not open the stored password of carrier telstra')]);
    expect((await runCliWithInput('optus-pw-3\n', { CARRIER_SECRET_KEY: NEW }, 'carrier:update', '--name', 'optus', '--password-stdin')).code).toBe(0);
    PASSWORDS.optus = 'optus-pw-3';
  });

  it('run again with the old key, says the passwords already open with the new one and writes nothing', async () => {
    const before = [await rows(), await version()];
    const res = await rekey(`${OLD}\n`, { CARRIER_SECRET_KEY: NEW }, '--old-key-stdin');
    expect([res.code, res.stderr]).toEqual([
      1,
      'error: the old key does not open the stored passwords of carriers optus, telstra (they open with CARRIER_SECRET_KEY: already resealed?): nothing was resealed\n',
    ]);
    expect([await rows(), await version()]).toEqual(before);
  });
});
