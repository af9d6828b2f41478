import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { startSmsc, smppSettings } from '../support/delivery';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';

/** Keyword auto-replies end to end: a mobile-originated message from the SMSC, the reply submitted back to it over SMPP. */
describe('Keyword auto-replies through the SMSC (live accounts)', () => {
  let smsc: SmscSimulator;
  let t: TestApp;
  let acct: TestAccount;
  let number: string;
  let next = 10;

  beforeAll(async () => {
    const started = await startSmsc();
    smsc = started.smsc;
    t = await startTestApp(smppSettings(started.port));
  });
  beforeEach(async () => {
    // A number of its own per test: replies to a number several accounts hold go to the one that wrote last.
    number = `614000000${next++}`;
    acct = await createAccount(t.app, { credits: 100, name: 'Corner Cafe', senders: [number] });
  });
  afterAll(async () => {
    await t.close();
    await smsc.stop();
  });

  const submitsTo = (mobile: string) => smsc.submits.filter((s) => s.destinationAddr === mobile && s.smscId !== null);

  it('answers a keyword from the number replied to, and HELP with the business name', async () => {
    await t.api.post('/v1/keyword-rules', { auth: acct.auth, body: { match: 'first_word', keyword: 'MENU', reply: 'Today: laksa and lamingtons' } });
    await smsc.injectMo({ from: '61412300001', to: number, text: 'Menu?' });
    await smsc.injectMo({ from: '61412300002', to: number, text: 'help' });
    await until(() => submitsTo('61412300001').length === 1 && submitsTo('61412300002').length === 1, 'both auto-replies at the SMSC');
    expect(submitsTo('61412300001').map((s) => [s.sourceAddr, s.text])).toEqual([[number, 'Today: laksa and lamingtons']]);
    expect(submitsTo('61412300002')[0].text).toBe('Corner Cafe: this number sends you our messages. Reply STOP to opt out, START to opt back in.');
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(98);
  });

  it('stops answering another machine that echoes its auto-reply back', async () => {
    await t.api.post('/v1/keyword-rules', { auth: acct.auth, body: { match: 'pattern', keyword: '*HOURS*', reply: 'Our HOURS are 7 to 3' } });
    await smsc.injectMo({ from: '61412300003', to: number, text: 'hours?' });
    await until(() => submitsTo('61412300003').length === 1, 'the auto-reply at the SMSC');
    // The other side answers with our own text, as an auto-responder would.
    await smsc.injectMo({ from: '61412300003', to: number, text: 'Our HOURS are 7 to 3' });
    await until(async () => (await t.api.get('/v1/inbound', { auth: acct.auth })).body.total === 2, 'the echo stored');
    // And the account has not paid for a second reply (one debit of 1.00), so none can be on its way.
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(99);
    expect(submitsTo('61412300003')).toHaveLength(1);
  });

  it('sends an opted-out number nothing but START’s confirmation once it opts back in', async () => {
    await t.api.post('/v1/keyword-rules', { auth: acct.auth, body: { match: 'exact', keyword: 'PROMO', reply: 'Half price today' } });
    await smsc.injectMo({ from: '61412300004', to: number, text: 'STOP' });
    await until(async () => (await t.api.get('/v1/unsubscribes', { auth: acct.auth })).body.total === 1, 'the opt-out');
    await smsc.injectMo({ from: '61412300004', to: number, text: 'PROMO' });
    await until(async () => (await t.api.get('/v1/inbound', { auth: acct.auth })).body.total === 2, 'the keyword stored');
    await smsc.injectMo({ from: '61412300004', to: number, text: 'START' });
    await until(() => submitsTo('61412300004').length === 1, 'the START confirmation at the SMSC');
    expect(submitsTo('61412300004')[0].text).toBe('Corner Cafe: you are subscribed again. Reply STOP to opt out.');
    expect((await t.api.get('/v1/unsubscribes', { auth: acct.auth })).body.total).toBe(0);
  });
});
