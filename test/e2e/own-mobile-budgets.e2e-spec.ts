import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { PageClient } from '../support/page-client';
import { basicAuth, createAccount, startTestApp, TestApp } from '../support/test-app';

/** SMS pumping through own-mobile confirmations: the texts the platform pays for are budgeted per account, key and address. */
describe('Own-mobile confirmation budgets (POST /v1/senders)', () => {
  let t: TestApp;
  let db: DataSource;
  let mobile = 0;
  let address = 0;
  const nextMobile = () => `04136${String(++mobile).padStart(5, '0')}`;
  const nextAddress = () => `10.33.0.${++address}`;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api', dashboardUrl: 'https://dash.example.com.au' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const register = (auth: string, remoteAddress: string, number = nextMobile()) => t.api.post('/v1/senders', { auth, remoteAddress, body: { number } });
  const texts = async (accountId: number) => (await db.query(`SELECT count(*)::int AS n FROM sender_verifications WHERE account_id = $1`, [accountId]))[0].n as number;

  it('stops one account texting many different mobiles: 5 an hour by default, then 429 with Retry-After and nothing sent', async () => {
    const acct = await createAccount(t.app);
    const keys = t.app.get(ApiKeysService);
    // Spread over keys and addresses, so only the account's budget applies.
    const auths = [acct.auth];
    for (let i = 0; i < 4; i++) {
      const key = await keys.issue(acct.accountId, `key ${i}`);
      auths.push(basicAuth(key.username, key.password));
    }
    for (let i = 0; i < 5; i++) expect((await register(auths[i], nextAddress())).status).toBe(200);
    const refused = await register(auths[0], nextAddress());
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many confirmation messages requested by this account. Try again in 60 minutes.' }]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await texts(acct.accountId)).toBe(5);
  });

  it('stops one API key at 3 an hour by default while the account has budget left', async () => {
    const acct = await createAccount(t.app);
    for (let i = 0; i < 3; i++) expect((await register(acct.auth, nextAddress())).status).toBe(200);
    const refused = await register(acct.auth, nextAddress());
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many confirmation messages requested with this API key. Try again in 60 minutes.' }]);
    const key = await t.app.get(ApiKeysService).issue(acct.accountId, 'other');
    expect((await register(basicAuth(key.username, key.password), nextAddress())).status).toBe(200);
    expect(await texts(acct.accountId)).toBe(4);
  });

  it('stops one client address at 5 an hour by default, across accounts', async () => {
    const from = nextAddress();
    for (let i = 0; i < 5; i++) expect((await register((await createAccount(t.app)).auth, from)).status).toBe(200);
    const acct = await createAccount(t.app);
    const refused = await register(acct.auth, from);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many confirmation messages requested from this address. Try again in 60 minutes.' }]);
    expect(await texts(acct.accountId)).toBe(0);
    expect((await register(acct.auth, nextAddress())).status).toBe(200);
  });

  it("simulates a test account's confirmation text (it reaches no phone) and answers the link, which completes the flow", async () => {
    const acct = await createAccount(t.app, { test: true });
    const number = nextMobile();
    const res = await register(acct.auth, nextAddress(), number);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'complete',
      sender: `61${number.slice(1)}`,
      type: 'own',
      verification: 'pending',
      test_confirmation_url: expect.stringMatching(/^https:\/\/dash\.example\.com\.au\/senders\/confirm\/[A-Za-z0-9_-]{22}$/),
    });
    const [text] = await db.query(`SELECT m.is_test FROM sender_verifications v JOIN messages m ON m.id = v.message_id WHERE v.account_id = $1`, [acct.accountId]);
    expect(text).toEqual({ is_test: true });
    const live = await createAccount(t.app);
    const liveRes = await register(live.auth, nextAddress());
    expect(liveRes.body.test_confirmation_url).toBeUndefined();
    const [liveText] = await db.query(`SELECT m.is_test FROM sender_verifications v JOIN messages m ON m.id = v.message_id WHERE v.account_id = $1`, [live.accountId]);
    expect(liveText).toEqual({ is_test: false });

    expect((await new PageClient(t.app).get(new URL(res.body.test_confirmation_url).pathname)).status).toBe(200);
    const senders = (await t.api.get('/v1/senders', { auth: acct.auth })).body.results;
    expect(senders.find((s: { sender: string }) => s.sender === `61${number.slice(1)}`)).toMatchObject({ type: 'own', status: 'active' });
  });
});
