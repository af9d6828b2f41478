import { DataSource } from 'typeorm';
import { MAX_LABEL_LENGTH } from '../../src/accounts/api-keys.service';
import { CreditsService, MAX_GRANT_REASON_LENGTH } from '../../src/billing/credits.service';
import { CONSENT_SOURCE_MAX } from '../../src/contact-imports/dto/contact-import.dto';
import { MAX_DECLINE_REASON_LENGTH } from '../../src/live-requests/live-request-input';
import { LIST_NAME_MAX_LENGTH } from '../../src/lists/dto/list.dto';
import { MAX_REJECTION_REASON_LENGTH } from '../../src/sender-identity/registrations/sender-registrations.service';
import { MAX_NAME_LENGTH } from '../../src/users/users.service';
import { runCli } from '../support/run-cli';
import { basicAuth, startTestApp, TestApp } from '../support/test-app';

// Each CLI call is a process of its own; on a loaded machine ten of them in a row take more than the default 30 s.
jest.setTimeout(180_000);

describe('Operator CLI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function newAccount(...extra: string[]) {
    const res = await runCli('account:create', '--name', 'CLI Co', ...extra);
    expect(res.code).toBe(0);
    return res.json as { account_id: number; api_username: string; api_password: string };
  }

  it('account:create prints the account and a first key that works against the API', async () => {
    const res = await runCli('account:create', '--name', 'Harbour Bakery', '--credits', '150.25', '--sender', 'Harbour', '--sender', '0412 000 111', '--allow-duplicate-contacts');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(Object.keys(res.json).sort()).toEqual(['account_id', 'api_password', 'api_username', 'credit_balance', 'name', 'test'].sort());
    expect(res.json).toMatchObject({ name: 'Harbour Bakery', test: false, credit_balance: 150.25 });
    expect(res.json.api_password.length).toBeGreaterThanOrEqual(32);

    const auth = basicAuth(res.json.api_username, res.json.api_password);
    expect((await t.api.get('/v1/account', { auth })).body).toMatchObject({ credit_balance: 150.25, name: 'Harbour Bakery' });
    const senders = await t.api.get('/v1/senders', { auth });
    expect(senders.body.results.map((s: { sender: string; type: string }) => [s.sender, s.type])).toEqual([
      ['Harbour', 'alpha'],
      ['61412000111', 'dedicated'],
    ]);
    const shown = await runCli('account:show', '--account', String(res.json.account_id));
    expect(shown.json).toMatchObject({ allow_duplicate_contacts: true, credits_per_part: 1, active_api_keys: 1 });
  });

  it('account:create --test makes a test account', async () => {
    const res = await runCli('account:create', '--name', 'Sandbox', '--test');
    expect(res.json).toMatchObject({ test: true, credit_balance: 0 });
  });

  it.each([
    [['account:create'], '--name is required', 2],
    [['account:create', '--name', 'X', '--credits=-5'], '--credits must be a non-negative number with at most two decimals', 2],
    [['account:create', '--name', 'X', '--credits', '-5'], '--credits must be a non-negative number with at most two decimals', 2],
    [['account:create', '--name', 'X', '--credits', '1.234'], '--credits must be a non-negative number with at most two decimals', 2],
    [['account:create', '--name', 'X', '--sender', 'A!'], 'Sender ID "A!" must be 3-11 letters, digits or spaces with at least one letter', 1],
    [['account:show', '--account', '99999999'], 'Account 99999999 not found', 1],
    [['key:create', '--account', 'abc', '--label', 'x'], '--account must be a positive integer', 2],
    [['no:such'], 'unknown command no:such', 2],
    [['account:create', '--name', 'X', '--bogus'], "Unknown option '--bogus'", 2],
  ])('fails clearly for %j', async (args, message, code) => {
    const res = await runCli(...(args as string[]));
    expect(res.code).toBe(code);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(message);
  });

  it('key:create issues up to 10 active keys and refuses the eleventh', async () => {
    const account = await newAccount();
    for (let i = 2; i <= 10; i++) {
      const res = await runCli('key:create', '--account', String(account.account_id), '--label', `key ${i}`);
      expect(res.code).toBe(0);
      expect(res.json).toMatchObject({ label: `key ${i}` });
      expect(Object.keys(res.json).sort()).toEqual(['api_key_id', 'api_password', 'api_username', 'label']);
    }
    const eleventh = await runCli('key:create', '--account', String(account.account_id), '--label', 'one too many');
    expect(eleventh.code).toBe(1);
    expect(eleventh.stderr).toContain('An account may hold at most 10 API keys');

    // A revoked key no longer counts.
    await runCli('key:revoke', '--username', account.api_username);
    const replacement = await runCli('key:create', '--account', String(account.account_id), '--label', 'replacement');
    expect(replacement.code).toBe(0);
  });

  it('allows exactly 10 keys when creations race', async () => {
    const account = await newAccount();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => runCli('key:create', '--account', String(account.account_id), '--label', `race ${i}`)));
    expect(results.filter((r) => r.code === 0)).toHaveLength(9);
    expect(results.filter((r) => r.stderr.includes('An account may hold at most 10 API keys'))).toHaveLength(3);
  });

  it('key:revoke makes the key fail at once and key:list never prints secrets', async () => {
    const account = await newAccount();
    const auth = basicAuth(account.api_username, account.api_password);
    expect((await t.api.get('/v1/account', { auth })).status).toBe(200);
    const revoked = await runCli('key:revoke', '--username', account.api_username);
    expect(revoked.json).toMatchObject({ api_username: account.api_username, revoked: true });
    expect((await t.api.get('/v1/account', { auth })).status).toBe(401);

    const again = await runCli('key:revoke', '--username', account.api_username);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`No active API key with username ${account.api_username}`);

    const list = await runCli('key:list', '--account', String(account.account_id));
    expect(list.json.keys).toHaveLength(1);
    expect(list.json.keys[0]).toMatchObject({
      api_username: account.api_username,
      purchases_enabled: false,
      daily_limit: 500,
      scopes: ['messages:send', 'messages:read', 'contacts', 'senders', 'webhooks', 'account'],
      allowed_cidrs: [],
      daily_message_cap: null,
    });
    expect(list.json.keys[0].revoked_at).not.toBeNull();
    expect(list.stdout).not.toContain(account.api_password);
    expect(list.stdout).not.toMatch(/password|sha256/i);
  });

  it('key:purchases switches purchases and sets the daily limit', async () => {
    const account = await newAccount();
    const on = await runCli('key:purchases', '--username', account.api_username, '--enable', '--daily-limit', '750.50');
    expect(on.json).toMatchObject({ purchases_enabled: true, daily_limit: 750.5, scopes: expect.arrayContaining(['purchases']) });
    const off = await runCli('key:purchases', '--username', account.api_username, '--disable');
    expect(off.json).toMatchObject({ purchases_enabled: false, daily_limit: 750.5 });
    const both = await runCli('key:purchases', '--username', account.api_username, '--enable', '--disable');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('exactly one of --enable or --disable is required');
  });

  it('key:purchases takes a daily limit up to A$1,000,000 (as the Settings page) and refuses more as a usage error', async () => {
    const account = await newAccount();
    const top = await runCli('key:purchases', '--username', account.api_username, '--enable', '--daily-limit', '1000000');
    expect([top.code, top.json?.daily_limit]).toEqual([0, 1000000]);
    // 30,000,000 dollars is more cents than the column holds: it was PostgreSQL's "out of range for type integer", exit 1.
    for (const amount of ['1000000.01', '30000000']) {
      const res = await runCli('key:purchases', '--username', account.api_username, '--enable', '--daily-limit', amount);
      expect([res.code, res.stdout, res.stderr]).toEqual([2, '', 'error: --daily-limit must be an amount in dollars with at most two decimals, up to 1000000\n']);
    }
    const list = await runCli('key:list', '--account', String(account.account_id));
    expect(list.json.keys[0]).toMatchObject({ daily_limit: 1000000 });
  });

  it('sender:add and sender:remove change what GET /v1/senders lists', async () => {
    const account = await newAccount();
    const auth = basicAuth(account.api_username, account.api_password);
    const added = await runCli('sender:add', '--account', String(account.account_id), '--sender', '61400000001', '--type', 'shared');
    expect(added.json).toEqual({ account_id: account.account_id, sender: '61400000001', type: 'shared', status: 'active' });
    expect((await t.api.get('/v1/senders', { auth })).body.results).toEqual([{ sender: '61400000001', type: 'shared', status: 'active', label: '', is_default: false }]);
    const removed = await runCli('sender:remove', '--account', String(account.account_id), '--sender', '61400000001');
    expect(removed.json).toMatchObject({ removed: true });
    expect((await t.api.get('/v1/senders', { auth })).body.results).toEqual([]);
    const badType = await runCli('sender:add', '--account', String(account.account_id), '--sender', 'Brand', '--type', 'weird');
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('--type must be one of alpha, own, dedicated, shared');
  });

  it('account:create and sender:add refuse a dedicated number active on another account: one line, exit 1, nothing written', async () => {
    const owner = await newAccount('--sender', '0412 000 222');
    const taken = `error: 61412000222 is already an active dedicated sender on account ${owner.account_id}; a dedicated number belongs to one account at a time (remove it there first)\n`;
    // The README walkthrough run a second time on the same database.
    const again = await runCli('account:create', '--name', 'Second Bakery', '--sender', 'Second', '--sender', '0412000222');
    expect([again.code, again.stdout, again.stderr]).toEqual([1, '', taken]);
    expect((await runCli('account:list', '--name', 'Second Bakery')).json.accounts).toEqual([]);

    const other = await newAccount();
    for (const type of ['dedicated', 'shared']) {
      const add = await runCli('sender:add', '--account', String(other.account_id), '--sender', '+61 412 000 222', '--type', type);
      expect([type, add.code, add.stdout, add.stderr]).toEqual([type, 1, '', taken]);
    }
    expect((await runCli('account:show', '--account', String(other.account_id))).json.senders).toEqual([]);
  });

  it('credits:add records a ledger entry and moves the balance', async () => {
    const account = await newAccount('--credits', '5');
    const res = await runCli('credits:add', '--account', String(account.account_id), '--credits', '20.5', '--reason', 'goodwill');
    expect(res.json).toEqual({ account_id: account.account_id, credits_added: 20.5, credit_balance: 25.5 });
    expect(await t.app.get(CreditsService).ledgerSum(account.account_id)).toBe(2550);
    const zero = await runCli('credits:add', '--account', String(account.account_id), '--credits', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--credits must be a positive number with at most two decimals');
  });

  describe('free text longer than the page or API takes', () => {
    const TABLES = ['accounts', 'api_keys', 'credit_ledger', 'users', 'contact_lists', 'contact_imports', 'live_requests', 'sender_registrations'];
    const counts = async () => {
      const ds = t.app.get(DataSource);
      return Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, (await ds.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number])));
    };
    const over = (max: number) => 'x'.repeat(max + 1);

    it.each([
      [['account:create', '--name', over(MAX_NAME_LENGTH)], 'name', MAX_NAME_LENGTH],
      [['key:create', '--account', 'ACCOUNT', '--label', over(MAX_LABEL_LENGTH)], 'label', MAX_LABEL_LENGTH],
      [['credits:add', '--account', 'ACCOUNT', '--credits', '5', '--reason', over(MAX_GRANT_REASON_LENGTH)], 'reason', MAX_GRANT_REASON_LENGTH],
      [['user:create', '--account', 'ACCOUNT', '--email', 'long@example.com.au', '--owner', '--name', over(MAX_NAME_LENGTH)], 'name', MAX_NAME_LENGTH],
      [['contacts:import', '--account', 'ACCOUNT', '--list', over(LIST_NAME_MAX_LENGTH), '--file', 'contacts.csv'], 'list', LIST_NAME_MAX_LENGTH],
      [['contacts:import', '--account', 'ACCOUNT', '--list', 'L', '--file', 'contacts.csv', '--consent-source', over(CONSENT_SOURCE_MAX)], 'consent-source', CONSENT_SOURCE_MAX],
      [['account:decline', '--id', '1', '--reason', over(MAX_DECLINE_REASON_LENGTH)], 'reason', MAX_DECLINE_REASON_LENGTH],
      [['registration:reject', '--id', '1', '--reason', over(MAX_REJECTION_REASON_LENGTH)], 'reason', MAX_REJECTION_REASON_LENGTH],
    ])('%#: refuses it with one line and the usage exit code, and writes nothing', async (args, flag, max) => {
      const account = String((await newAccount()).account_id);
      const before = await counts();
      const res = await runCli(...(args as string[]).map((a) => (a === 'ACCOUNT' ? account : a)));
      expect([res.code, res.stdout, res.stderr]).toEqual([2, '', `error: --${flag} must be at most ${max} characters\n`]);
      expect(await counts()).toEqual(before);
    });

    it('takes text of exactly the limit (counted trimmed)', async () => {
      const account = String((await newAccount()).account_id);
      const label = 'k'.repeat(MAX_LABEL_LENGTH);
      const key = await runCli('key:create', '--account', account, '--label', `  ${label}  `);
      expect([key.code, key.json?.label]).toEqual([0, label]);
      const reason = 'r'.repeat(MAX_GRANT_REASON_LENGTH);
      expect((await runCli('credits:add', '--account', account, '--credits', '1', '--reason', reason)).code).toBe(0);
      const [entry] = await t.app.get(DataSource).query(`SELECT reason FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT 1`, [Number(account)]);
      expect(entry.reason).toBe(reason);
    });

    it('says the limit in --help', async () => {
      const help = await runCli('key:create', '--help');
      expect(help.stdout).toMatch(new RegExp(`--label LABEL\\s+what the key is for \\(at most ${MAX_LABEL_LENGTH} characters\\) \\(required\\)`));
    });
  });
});
