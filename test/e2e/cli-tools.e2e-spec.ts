import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { UserLinksService } from '../../src/users/user-links.service';
import { runCli, runCliWithEnv } from '../support/run-cli';
import { startTestApp, TestApp } from '../support/test-app';
import { dropDatabase } from '../support/test-env';

jest.setTimeout(180_000);

const tokenOf = (link: string) => link.split('/set-password/')[1];

describe('Operator CLI: help, listings and set-password links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('prints a command list and, per command, its usage, flags and an example on stdout (exit 0)', async () => {
    const list = await runCli('--help');
    expect([list.code, list.stderr]).toEqual([0, '']);
    for (const name of ['account:list', 'user:list', 'user:reset-link', 'account:create', 'db:migrate']) expect(list.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));

    const help = await runCli('account:create', '--help');
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('usage: npm run -s cli -- account:create --name NAME [--owner-email EMAIL]');
    expect(help.stdout).toMatch(/--credits CREDITS\s+opening credits/);
    expect(help.stdout).toContain('example:\n  npm run -s cli -- account:create --name "Harbour Bakery"');

    const bare = await runCli();
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('usage: npm run -s cli -- <command> [flags]');
  });

  it('finds every listed command through its group in the command table', async () => {
    const table = path.resolve(__dirname, '../../dist/src/cli/command-table.js');
    const script = `const t = require(${JSON.stringify(table)});
      t.allCommands().then(async (all) => {
        const missing = [];
        for (const c of all) if ((await t.findCommand(c.name)) !== c) missing.push(c.name);
        process.stdout.write(JSON.stringify({ count: all.length, missing }));
      });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
    const result = JSON.parse(stdout);
    expect(result.missing).toEqual([]);
    expect(result.count).toBeGreaterThanOrEqual(26);
  });

  it('account:list pages through accounts in id order, filtered by name', async () => {
    const tag = `Listco${Date.now()}`;
    const first = (await runCli('account:create', '--name', `${tag} One`, '--credits', '12.5', '--owner-email', `${tag.toLowerCase()}@example.com.au`)).json;
    const second = (await runCli('account:create', '--name', `${tag} Two`, '--test')).json;
    const page1 = await runCli('account:list', '--name', tag.toLowerCase(), '--limit', '1');
    expect(page1.code).toBe(0);
    expect(page1.json).toEqual({
      accounts: [
        {
          account_id: first.account_id,
          name: `${tag} One`,
          test: false,
          credit_balance: 12.5,
          owner_email: `${tag.toLowerCase()}@example.com.au`,
          users: 1,
          active_api_keys: 1,
          created_at: expect.any(String),
        },
      ],
      next_after: first.account_id,
    });
    const page2 = await runCli('account:list', '--name', tag, '--limit', '1', '--after', String(first.account_id));
    expect(page2.json).toMatchObject({ accounts: [{ account_id: second.account_id, test: true, owner_email: null, users: 0 }], next_after: null });
    const bad = await runCli('account:list', '--limit', '0');
    expect([bad.code, bad.stderr]).toEqual([2, 'error: --limit must be a whole number from 1 to 1000\n']);
  });

  it('user:list shows the owner first and who has set a password; user:reset-link issues a working link and retires the old one', async () => {
    const email = `owner${Date.now()}@example.com.au`;
    const created = (await runCli('account:create', '--name', 'Reset Co', '--owner-email', email)).json;
    const staff = await runCli('user:create', '--account', String(created.account_id), '--email', `staff-${email}`, '--permission', 'manage_senders');
    expect(staff.code).toBe(0);

    const listed = await runCli('user:list', '--account', String(created.account_id));
    expect(listed.json).toEqual({
      account_id: created.account_id,
      users: [
        { user_id: created.owner.user_id, account_id: created.account_id, email, owner: true, permissions: [], name: '', password_set: false, created_at: expect.any(String) },
        expect.objectContaining({ email: `staff-${email}`, owner: false, permissions: ['manage_senders'], password_set: false }),
      ],
    });

    const links = t.app.get(UserLinksService);
    const invitation = await runCli('user:reset-link', '--email', email.toUpperCase());
    expect(invitation.json).toMatchObject({ user_id: created.owner.user_id, email, link_kind: 'invitation', valid_minutes: 1440 });
    await expect(links.inspect(tokenOf(created.owner.set_password_link))).rejects.toThrow('This link is invalid, already used or expired. Ask for a new one.');
    await links.setPassword(tokenOf(invitation.json.set_password_link), 'a long enough password', 'a long enough password', '127.0.0.1');

    const reset = await runCli('user:reset-link', '--email', email);
    expect(reset.json).toMatchObject({ link_kind: 'password_reset', valid_minutes: 60 });
    await expect(links.inspect(tokenOf(reset.json.set_password_link))).resolves.toMatchObject({ purpose: 'password_reset' });
    expect((await runCli('user:list', '--account', String(created.account_id))).json.users[0].password_set).toBe(true);

    const unknown = await runCli('user:reset-link', '--email', 'nobody@example.com.au');
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([1, '', 'error: No user with email nobody@example.com.au\n']);
  });

  it('refuses to run against a database that was never migrated, until db:migrate', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `${url.pathname}_cli`;
    const env = { DATABASE_URL: url.toString() };
    try {
      const refused = await runCliWithEnv(env, 'account:list');
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([
        1,
        '',
        `error: database ${url.pathname.slice(1)} does not exist or was never migrated: run db:migrate first\n`,
      ]);
      const migrated = await runCliWithEnv(env, 'db:migrate');
      expect(migrated.json).toMatchObject({ database_created: true });
      expect((await runCliWithEnv(env, 'account:list')).json).toEqual({ accounts: [], next_after: null });
    } finally {
      await dropDatabase(url.toString());
    }
  });
});
