import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { accountWithOwner, signedIn, userWith } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { basicAuth, startTestApp, TestApp } from '../support/test-app';

/** Settings › API: scopes, allowed addresses and the daily cap, set at creation and changed per key, without JavaScript. */
describe('Settings › API: key scopes, addresses and caps', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t?.close());

  const keyRow = async (accountId: number, label: string) =>
    (await db.query(`SELECT id, username, scopes, allowed_cidrs, daily_message_cap, purchases_enabled FROM api_keys WHERE account_id = $1 AND label = $2`, [accountId, label]))[0];

  it('creates a key with the chosen scopes, addresses and cap, and the key is held to them', async () => {
    const acct = await accountWithOwner(t.app, { credits: 10 });
    const owner = await signedIn(t.app, acct.ownerEmail);
    const page = textOf((await owner.get('/settings/api')).html);
    expect(page).toContain('Send messages messages:send');
    expect(page).toContain('Scopes messages:send, messages:read, contacts, senders, webhooks, account');
    const res = await owner.post('/settings/api/keys', {
      label: 'Reports',
      scopes: ['messages:read', 'contacts'],
      allowed_cidrs: '127.0.0.1\n2001:DB8::/32',
      daily_message_cap: '50',
    });
    expect(res.status).toBe(200);
    const password = /id="key-password">([^<]+)</.exec(res.html)![1];
    const row = await keyRow(acct.accountId, 'Reports');
    expect(row).toMatchObject({ scopes: ['messages:read', 'contacts'], allowed_cidrs: ['127.0.0.1/32', '2001:db8::/32'], daily_message_cap: 50, purchases_enabled: false });
    const auth = basicAuth(row.username, password);
    expect((await t.api.get('/v1/contacts', { auth })).status).toBe(200);
    expect((await t.api.get('/v1/webhooks', { auth })).body).toEqual({ error: 'This API key does not have the webhooks scope' });
    expect((await t.api.get('/v1/contacts', { auth, remoteAddress: '192.0.2.1' })).body).toEqual({ error: 'This API key cannot be used from this address' });
    const audit = textOf((await owner.get('/audit')).html);
    expect(audit).toContain(`Reports (${row.username}): scopes messages:read, contacts; from 127.0.0.1/32, 2001:db8::/32; daily cap 50`);
  });

  it.each([
    [{ scopes: [] as string[], allowed_cidrs: '', daily_message_cap: '' }, 'Choose at least one scope for the key'],
    [
      { scopes: ['contacts'], allowed_cidrs: '10.0.0.0/33', daily_message_cap: '' },
      '"10.0.0.0/33" is not an IP address or CIDR block (for example 203.0.113.0/24 or 2001:db8::/32)',
    ],
    [{ scopes: ['contacts'], allowed_cidrs: 'office', daily_message_cap: '' }, '"office" is not an IP address or CIDR block (for example 203.0.113.0/24 or 2001:db8::/32)'],
    [{ scopes: ['contacts'], allowed_cidrs: '', daily_message_cap: '0' }, 'The daily message cap must be a whole number from 1 to 100000, or empty for no cap'],
    [{ scopes: ['contacts'], allowed_cidrs: '', daily_message_cap: '2.5' }, 'The daily message cap must be a whole number from 1 to 100000, or empty for no cap'],
  ])('refuses %j with its text, on the page, changing nothing', async (fields, text) => {
    const acct = await accountWithOwner(t.app);
    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/settings/api');
    const keyId = (await t.app.get(ApiKeysService).listActive(acct.accountId))[0].id;
    const before = await db.query('SELECT scopes, allowed_cidrs, daily_message_cap FROM api_keys WHERE id = $1', [keyId]);
    const changed = await owner.post(`/settings/api/keys/${keyId}/access`, fields);
    expect(changed.status).toBe(400);
    expect(textOf(changed.html)).toContain(text);
    expect(await db.query('SELECT scopes, allowed_cidrs, daily_message_cap FROM api_keys WHERE id = $1', [keyId])).toEqual(before);
    const created = await owner.post('/settings/api/keys', { label: 'Refused', ...fields });
    expect(created.status).toBe(400);
    expect(textOf(created.html)).toContain(text);
    expect(await keyRow(acct.accountId, 'Refused')).toBeUndefined();
  });

  it('changes a key’s access for manage_api_keys only, audited with before and after; CSRF required', async () => {
    const acct = await accountWithOwner(t.app);
    const keyId = (await t.app.get(ApiKeysService).listActive(acct.accountId))[0].id;
    const fields = { scopes: ['messages:send'], allowed_cidrs: '203.0.113.0/24', daily_message_cap: '1000' };

    const billing = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_billing']));
    const billingPage = await billing.get('/settings/api');
    expect(billingPage.html).not.toContain(`/settings/api/keys/${keyId}/access`);
    const refused = await billing.post(`/settings/api/keys/${keyId}/access`, fields);
    expect([refused.status, textOf(refused.html)]).toEqual([403, expect.stringContaining('You do not have permission to do this')]);

    const keys = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_api_keys']));
    await keys.get('/settings/api');
    const forged = await keys.post(`/settings/api/keys/${keyId}/access`, { ...fields, _csrf: 'forged' });
    expect([forged.status, textOf(forged.html)]).toEqual([403, expect.stringContaining('This form has expired. Go back, reload the page and try again.')]);
    expect((await db.query('SELECT daily_message_cap FROM api_keys WHERE id = $1', [keyId]))[0].daily_message_cap).toBeNull();

    const saved = await keys.post(`/settings/api/keys/${keyId}/access`, fields);
    expect([saved.status, saved.location]).toEqual([303, '/settings/api?notice=key_access_saved']);
    expect((await db.query('SELECT scopes, allowed_cidrs, daily_message_cap FROM api_keys WHERE id = $1', [keyId]))[0]).toEqual({
      scopes: ['messages:send'],
      allowed_cidrs: ['203.0.113.0/24'],
      daily_message_cap: 1000,
    });
    const shown = textOf((await keys.get('/settings/api?notice=key_access_saved')).html);
    expect(shown).toContain('Key access saved');
    expect(shown).toContain('Allowed addresses 203.0.113.0/24');
    expect(shown).toContain('Daily message cap 1000 messages a day');
    const [entry] = await db.query(`SELECT action, detail FROM audit_log WHERE account_id = $1 AND action = 'api_key.access_changed'`, [acct.accountId]);
    expect(entry.detail).toMatch(
      /: scopes messages:send, messages:read, contacts, senders, webhooks, account; from any address; no daily cap → scopes messages:send; from 203\.0\.113\.0\/24; daily cap 1000$/,
    );
    // Another account's key is not found, whatever the id.
    const other = await accountWithOwner(t.app);
    const otherKey = (await t.app.get(ApiKeysService).listActive(other.accountId))[0].id;
    const foreign = await keys.post(`/settings/api/keys/${otherKey}/access`, fields);
    expect(foreign.status).toBe(404);
    expect((await db.query('SELECT daily_message_cap FROM api_keys WHERE id = $1', [otherKey]))[0].daily_message_cap).toBeNull();
  });
});
