import { CreditsService } from '../../src/billing/credits.service';
import { SendersService } from '../../src/senders/senders.service';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

describe('GET /v1/account and GET /v1/senders', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('returns the credit balance as a number with the name and test flag', async () => {
    const account = await createAccount(t.app, { credits: 1250.5, name: 'Balance Pty Ltd' });
    const res = await t.api.get('/v1/account', { auth: account.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'complete', credit_balance: 1250.5, name: 'Balance Pty Ltd', test_account: false });
  });

  it('reports a test account as such', async () => {
    const account = await createAccount(t.app, { test: true });
    const res = await t.api.get('/v1/account', { auth: account.auth });
    expect(res.body).toMatchObject({ credit_balance: 0, test_account: true });
  });

  it('reflects credits granted later, with the ledger summing to the balance', async () => {
    const account = await createAccount(t.app, { credits: 10 });
    await t.app.get(CreditsService).grant(account.accountId, 2575, 'top up', 'test');
    const res = await t.api.get('/v1/account', { auth: account.auth });
    expect(res.body.credit_balance).toBe(35.75);
    expect(await t.app.get(CreditsService).ledgerSum(account.accountId)).toBe(3575);
  });

  it('lists only active senders with their type, status, label and default flag', async () => {
    const account = await createAccount(t.app, { senders: ['Acme', '0412 345 678', 'Gone'] });
    await t.app.get(SendersService).remove(account.accountId, 'Gone');
    const res = await t.api.get('/v1/senders', { auth: account.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'complete',
      results: [
        { sender: 'Acme', type: 'alpha', status: 'active', label: '', is_default: false },
        { sender: '61412345678', type: 'dedicated', status: 'active', label: '', is_default: false },
      ],
    });
  });

  it('returns an empty list for an account without senders', async () => {
    const account = await createAccount(t.app, { senders: [] });
    const res = await t.api.get('/v1/senders', { auth: account.auth });
    expect(res.body).toEqual({ status: 'complete', results: [] });
  });

  it('never shows one account the data of another', async () => {
    const one = await createAccount(t.app, { credits: 1, senders: ['OneBrand'], name: 'One' });
    const two = await createAccount(t.app, { credits: 2, senders: ['TwoBrand'], name: 'Two' });
    const [a1, a2] = await Promise.all([t.api.get('/v1/account', { auth: one.auth }), t.api.get('/v1/account', { auth: two.auth })]);
    expect([a1.body.name, a1.body.credit_balance]).toEqual(['One', 1]);
    expect([a2.body.name, a2.body.credit_balance]).toEqual(['Two', 2]);
    const [s1, s2] = await Promise.all([t.api.get('/v1/senders', { auth: one.auth }), t.api.get('/v1/senders', { auth: two.auth })]);
    expect(s1.body.results.map((s: { sender: string }) => s.sender)).toEqual(['OneBrand']);
    expect(s2.body.results.map((s: { sender: string }) => s.sender)).toEqual(['TwoBrand']);
  });
});
