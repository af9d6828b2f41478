import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { CarrierSecret } from '../../src/carriers/carrier-secret';
import { runCli, runCliWithInput } from '../support/run-cli';

// Each CLI call is a process of its own; on a loaded machine a run of them takes more than the default 30 s.
jest.setTimeout(240_000);

const KEY = randomBytes(32).toString('base64');
const WITH_KEY = { CARRIER_SECRET_KEY: KEY };
const PASSWORD = 'pw-Zq81!x';

function add(name: string, ...extra: string[]) {
  return runCliWithInput(`${PASSWORD}\n`, WITH_KEY, 'carrier:add', '--name', name, '--host', '127.0.0.1', '--port', '2775', '--system-id', 'harbour', '--password-stdin', ...extra);
}

describe('Carrier and route commands', () => {
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(() => db.end());

  it('carrier:add reads the password from stdin, stores it sealed under CARRIER_SECRET_KEY and never prints it', async () => {
    const res = await add('alpha', '--binds', '2', '--window', '50', '--tps-per-bind', '30', '--alpha-source', '5/0', '--numeric-source', '1/1');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).not.toContain(PASSWORD);
    expect(res.json).toMatchObject({
      name: 'alpha',
      host: '127.0.0.1',
      port: 2775,
      tls: false,
      system_id: 'harbour',
      password: 'set',
      binds: 2,
      window: 50,
      tps_per_bind: 30,
      enabled: true,
    });
    expect(res.json.id).toBeGreaterThanOrEqual(1);

    const { rows } = await db.query<{ password_sealed: Buffer }>(`SELECT password_sealed FROM carriers WHERE name = 'alpha'`);
    expect(rows[0].password_sealed.includes(Buffer.from(PASSWORD))).toBe(false);
    expect(CarrierSecret.fromKeyText(KEY).open(rows[0].password_sealed)).toBe(PASSWORD);
    expect(() => CarrierSecret.fromKeyText(randomBytes(32).toString('hex')).open(rows[0].password_sealed)).toThrow();

    const listed = await runCli('carrier:list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(PASSWORD);
    expect(listed.json.carriers.find((c: { name: string }) => c.name === 'alpha')).toMatchObject({ password: 'set', alpha_source: '5/0', numeric_source: '1/1' });
  });

  it('carrier:add takes the password from the environment variable --password-env names', async () => {
    const res = await runCliWithInput(
      undefined,
      { ...WITH_KEY, BETA_PW: 'from-env' },
      'carrier:add',
      '--name',
      'beta',
      '--host',
      'smpp.example.net',
      '--system-id',
      's',
      '--password-env',
      'BETA_PW',
    );
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({ name: 'beta', port: 2775, binds: 1, window: 10, tps_per_bind: 0 });
    const { rows } = await db.query<{ password_sealed: Buffer }>(`SELECT password_sealed FROM carriers WHERE name = 'beta'`);
    expect(CarrierSecret.fromKeyText(KEY).open(rows[0].password_sealed)).toBe('from-env');
  });

  it.each([
    [['--name', 'env'], '--name env is reserved'],
    [['--name', 'Bad Name'], '--name must be 1-32 lower-case letters'],
    [['--name', 'x1', '--port', '70000'], '--port must be a whole number from 1 to 65535'],
    [['--name', 'x2', '--window', '0'], '--window must be a whole number from 1 to 1000'],
    [['--name', 'x3', '--alpha-source', '9/0'], '--alpha-source must be TON/NPI'],
    [['--name', 'x4', '--host', 'http://x'], '--host must be a host name or an IP address'],
  ])('carrier:add refuses %j with exit 2 (a usage error) and stores nothing', async (args, message) => {
    // A case's own --host replaces the default (a flag given twice is a usage error).
    const host = args.includes('--host') ? [] : ['--host', '127.0.0.1'];
    const res = await runCliWithInput(`${PASSWORD}\n`, WITH_KEY, 'carrier:add', ...host, '--system-id', 'harbour', '--password-stdin', ...args);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toContain(PASSWORD);
    const { rows } = await db.query(`SELECT name FROM carriers WHERE name LIKE 'x%' OR name = 'nokey'`);
    expect(rows).toEqual([]);
  });

  // Not the command line's fault: configuration, and a name already taken (a conflict), exit 1 as in every other command.
  it.each([
    ['no key', 'nokey', 'error: CARRIER_SECRET_KEY is not set: a carrier password is stored only sealed with it (32 random bytes, e.g. openssl rand -base64 32)\n'],
    ['key', 'alpha', 'error: a carrier named alpha already exists\n'],
  ])('carrier:add (%s) refuses %s with exit 1 and stores nothing new', async (key, name, stderr) => {
    // The title names whether the key is set, never the key itself.
    const env = key === 'key' ? WITH_KEY : {};
    const before = (await db.query(`SELECT count(*)::int AS n FROM carriers`)).rows[0].n;
    const res = await runCliWithInput(`${PASSWORD}\n`, env, 'carrier:add', '--name', name, '--host', '127.0.0.1', '--system-id', 'harbour', '--password-stdin');
    expect([res.code, res.stdout, res.stderr]).toEqual([1, '', stderr]);
    expect((await db.query(`SELECT count(*)::int AS n FROM carriers`)).rows[0].n).toBe(before);
  });

  it('carrier:add without a password asks for one (exit 2)', async () => {
    const res = await runCliWithInput(undefined, WITH_KEY, 'carrier:add', '--name', 'nopw', '--host', 'h', '--system-id', 's');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the password is required: --password-stdin or --password-env VAR');
  });

  it('carrier:update changes only what is given, a new password too; enable and disable; each bumps the version workers poll', async () => {
    const version = async () => Number((await db.query(`SELECT version FROM carrier_settings_version`)).rows[0].version);
    const before = await version();
    const updated = await runCliWithInput('new-secret', WITH_KEY, 'carrier:update', '--name', 'beta', '--window', '20', '--password-stdin');
    expect(updated.code).toBe(0);
    expect(updated.json).toMatchObject({ name: 'beta', window: 20, host: 'smpp.example.net', binds: 1 });
    const { rows } = await db.query<{ password_sealed: Buffer }>(`SELECT password_sealed FROM carriers WHERE name = 'beta'`);
    expect(CarrierSecret.fromKeyText(KEY).open(rows[0].password_sealed)).toBe('new-secret');
    expect((await runCli('carrier:disable', '--name', 'beta')).json).toMatchObject({ enabled: false });
    expect((await runCli('carrier:enable', '--name', 'beta')).json).toMatchObject({ enabled: true });
    expect(await version()).toBe(before + 3);

    const nothing = await runCli('carrier:update', '--name', 'beta');
    expect([nothing.code, nothing.stderr]).toEqual([2, 'error: nothing to change: give at least one setting\n']);
    const unknown = await runCli('carrier:update', '--name', 'nosuch', '--binds', '2');
    // Not found exits 1, as an unknown account, user or key does.
    expect([unknown.code, unknown.stderr]).toEqual([1, 'error: no carrier named nosuch\n']);
    for (const verb of ['carrier:enable', 'carrier:disable', 'carrier:remove']) {
      const res = await runCli(verb, '--name', 'nosuch');
      expect([verb, res.code, res.stdout, res.stderr]).toEqual([verb, 1, '', 'error: no carrier named nosuch\n']);
    }
  });

  it("carrier:update and carrier:add refuse a key that does not open the other carriers' passwords, name them, and store nothing", async () => {
    const other = randomBytes(32).toString('base64');
    const sealed = async () => (await db.query<{ name: string; password_sealed: Buffer }>(`SELECT name, password_sealed FROM carriers ORDER BY id`)).rows;
    const version = async () => Number((await db.query(`SELECT version FROM carrier_settings_version`)).rows[0].version);
    // A row written by hand with no password has nothing to open: it is not named.
    await db.query(
      `INSERT INTO carriers (name, host, port, system_id, password_sealed, binds, submit_window, tps_per_bind, enabled) VALUES ('bare', 'h', 2775, 's', '', 1, 1, 0, false)`,
    );
    const before = await sealed();
    const versionBefore = await version();

    const updated = await runCliWithInput('another-pw\n', { CARRIER_SECRET_KEY: other }, 'carrier:update', '--name', 'beta', '--window', '30', '--password-stdin');
    // A key that is not the workers' is a configuration fault, not the command line's: exit 1.
    expect([updated.code, updated.stdout, updated.stderr]).toEqual([
      1,
      '',
      'error: CARRIER_SECRET_KEY does not open the stored password of carrier alpha: use the key the workers use (to change keys, see carrier:rekey)\n',
    ]);
    expect((await add('gamma')).code).toBe(0);
    const added = await runCliWithInput(`${PASSWORD}\n`, { CARRIER_SECRET_KEY: other }, 'carrier:add', '--name', 'delta', '--host', 'h', '--system-id', 's', '--password-stdin');
    expect([added.code, added.stdout, added.stderr]).toEqual([
      1,
      '',
      'error: CARRIER_SECRET_KEY does not open the stored passwords of carriers alpha, beta, gamma: use the key the workers use (to change keys, see carrier:rekey)\n',
    ]);
    for (const out of [updated.stderr, added.stderr]) for (const secret of [other, KEY, PASSWORD, 'another-pw']) expect(out).not.toContain(secret);

    const after = (await sealed()).filter((r) => r.name !== 'gamma');
    expect(after).toEqual(before);
    expect((await db.query(`SELECT submit_window FROM carriers WHERE name = 'beta'`)).rows[0].submit_window).toBe(20);
    expect(await version()).toBe(versionBefore + 1); // gamma's carrier:add (the workers' key) only

    // The workers' key is still accepted.
    expect((await runCliWithInput('beta-pw\n', WITH_KEY, 'carrier:update', '--name', 'beta', '--password-stdin')).code).toBe(0);
    await db.query(`DELETE FROM carriers WHERE name IN ('bare', 'gamma')`);
  });

  it('route:add, route:list, route:explain and route:remove; a routed carrier cannot be removed', async () => {
    const account = await runCli('account:create', '--name', 'Routed Co');
    const accountId = String(account.json.account_id);
    const first = await runCli('route:add', '--to', '61400-61449', '--sender', 'alphanumeric', '--carrier', 'alpha:3', '--carrier', 'beta:1', '--carrier', 'env:1:1');
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({
      position: 1,
      to: '61400-61449',
      sender: 'alphanumeric',
      account: 'any',
      carriers: [
        { carrier: 'alpha', weight: 3, priority: 0 },
        { carrier: 'beta', weight: 1, priority: 0 },
        { carrier: 'env', weight: 1, priority: 1 },
      ],
    });
    const second = await runCli('route:add', '--to', '614', '--account', accountId, '--carrier', 'beta', '--position', '1');
    expect(second.json).toMatchObject({ position: 1, to: '614', account: Number(accountId) });
    const list = await runCli('route:list');
    expect(list.json.routes.map((r: { id: number; position: number }) => [r.id, r.position])).toEqual([
      [second.json.id, 1],
      [first.json.id, 2],
    ]);

    // No worker reports here: every carrier counts as up, and the answer says so.
    const explained = await runCli('route:explain', '--to', '61412345678', '--sender', 'Harbour', '--account', accountId);
    expect(explained.code).toBe(0);
    expect(explained.json).toMatchObject({ sender_kind: 'alphanumeric', rule: { id: second.json.id }, takes_it_now: 'beta 100%' });
    expect(explained.json.carriers).toEqual([{ carrier: 'beta', priority: 0, weight: 1, state: 'unknown (no worker reporting)', share_now: 1 }]);
    const other = await runCli('route:explain', '--to', '61449000000', '--sender', 'Harbour', '--account', '999999');
    expect(other.json).toMatchObject({ rule: { id: first.json.id }, takes_it_now: 'alpha 75%, beta 25%' });
    const numeric = await runCli('route:explain', '--to', '61449000000', '--sender', '61412000000', '--account', '999999');
    expect(numeric.json).toMatchObject({
      sender_kind: 'numeric',
      rule: 'none matched: the default route (every enabled carrier, weight 1 each)',
      takes_it_now: 'alpha 50%, beta 50%',
    });

    // A rule whose carriers are all disabled is passed over, and explain says so.
    await runCli('carrier:disable', '--name', 'beta');
    const skipped = await runCli('route:explain', '--to', '61412345678', '--sender', 'Harbour', '--account', accountId);
    expect(skipped.json).toMatchObject({ skipped_rules: [{ id: second.json.id }], rule: { id: first.json.id }, takes_it_now: 'alpha 100%' });
    await runCli('carrier:enable', '--name', 'beta');

    const refused = await runCli('carrier:remove', '--name', 'beta');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `error: carrier beta is named by route(s) ${[first.json.id, second.json.id].sort((a, b) => a - b).join(', ')}: remove it from them (route:remove) first\n`,
    );
    expect((await runCli('route:remove', '--id', String(second.json.id))).json).toEqual({ id: second.json.id, removed: true });
    expect((await runCli('route:remove', '--id', String(first.json.id))).json).toEqual({ id: first.json.id, removed: true });
    const removed = await runCli('carrier:remove', '--name', 'beta');
    expect(removed.json).toMatchObject({ name: 'beta', removed: true });
    expect((await runCli('route:list')).json.routes).toEqual([]);
    const gone = await runCli('route:remove', '--id', String(first.json.id));
    expect([gone.code, gone.stderr]).toEqual([1, `error: no route with id ${first.json.id}\n`]);
  });

  it.each([
    [['route:add', '--carrier', 'alpha', '--to', '61-5'], '--to must be a prefix of digits'],
    [['route:add', '--carrier', 'alpha', '--to', '6149-6140'], '--to must be a prefix of digits'],
    [['route:add', '--to', '614'], '--carrier is required'],
    [['route:add', '--carrier', 'alpha:0'], '--carrier weight must be a whole number from 1 to 1000'],
    [['route:add', '--carrier', 'alpha', '--carrier', 'alpha:2'], 'carrier alpha is named twice'],
    [['route:add', '--carrier', 'alpha', '--sender', 'emoji'], '--sender must be one of alphanumeric, numeric, any'],
    [['route:explain', '--to', 'abc', '--sender', 'X', '--account', '1'], '--to must be a number in international digits'],
  ])('%j fails with exit 2: %s', async (args, message) => {
    const res = await runCli(...args);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
  });

  it('route:add naming a carrier that does not exist says so (exit 1, as any not found) and adds no rule', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM routes')).rows[0].n;
    const res = await runCli('route:add', '--to', '614', '--carrier', 'alpha', '--carrier', 'nosuch');
    expect([res.code, res.stdout, res.stderr]).toEqual([1, '', 'error: no carrier named nosuch (carrier:list; the SMPP_* carrier is env)\n']);
    expect((await db.query('SELECT count(*)::int AS n FROM routes')).rows[0].n).toBe(before);
  });

  it('route:add for an account that does not exist says so (exit 1) and adds no rule', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM routes')).rows[0].n;
    // It was the routes table's foreign key violation: insert or update on table "routes" violates foreign key constraint …
    const res = await runCli('route:add', '--to', '614', '--account', '999999', '--carrier', 'alpha', '--position', '1');
    expect([res.code, res.stdout, res.stderr]).toEqual([1, '', 'error: Account 999999 not found\n']);
    expect((await db.query('SELECT count(*)::int AS n FROM routes')).rows[0].n).toBe(before);
  });
});
