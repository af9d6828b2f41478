import { DataSource } from 'typeorm';
import { InboundService } from '../../src/inbound/inbound.service';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const BUSINESS = 'Harbour Bake';

/** Rule bodies create (and update, with a rule_id) refuse, with their texts. */
const INVALID_RULES: Array<[Record<string, unknown>, string]> = [
  [{ keyword: 'JOIN' }, 'match is required'],
  [{ match: 'regex', keyword: 'JOIN' }, 'match must be one of: exact, first_word, pattern'],
  [{ match: 'exact' }, 'keyword is required'],
  [{ match: 'exact', keyword: 'JO.N' }, 'keyword must be 1 to 40 letters, digits or spaces (one word for first_word; a pattern may use * and ? and needs a letter or digit)'],
  [
    { match: 'first_word', keyword: 'two words' },
    'keyword must be 1 to 40 letters, digits or spaces (one word for first_word; a pattern may use * and ? and needs a letter or digit)',
  ],
  [{ match: 'pattern', keyword: '*' }, 'keyword must be 1 to 40 letters, digits or spaces (one word for first_word; a pattern may use * and ? and needs a letter or digit)'],
  [{ match: 'exact', keyword: 'JOIN', number: '61499999999' }, 'number must be one of the account’s dedicated or shared numbers'],
  [{ match: 'exact', keyword: 'JOIN', number: 'Brand' }, 'number must be one of the account’s dedicated or shared numbers'],
  [{ match: 'exact', keyword: 'JOIN', opt_in: true, opt_out: true }, 'A rule cannot both opt out and opt back in'],
  [{ match: 'exact', keyword: 'STOP', add_to_list_id: 1 }, 'A rule for a STOP word may only set its confirmation reply: the opt-out always applies'],
  [{ match: 'exact', keyword: 'JOIN', reply: 'x'.repeat(766) }, 'reply exceeds the maximum of 5 parts'],
  [{ match: 'exact', keyword: 'JOIN', opt_in: 'yes' }, 'opt_in must be a boolean'],
  [{ match: 'exact', keyword: 'JOIN', position: 0 }, 'position must be a positive integer'],
];

describe('Keyword rules: /v1/keyword-rules and what replies make happen', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    // No delivery workers: auto-replies stay pending, so each one can be read back as it was stored.
    t = await startTestApp({ appRole: 'api', autoReplyLimit: 3, webhookAllowPrivate: true });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { test: true, name: BUSINESS, senders: ['Brand', '61400000001', '61400000002'] });
  });
  afterAll(() => t.close());

  const rules = (a = acct) => t.api.get('/v1/keyword-rules', { auth: a.auth });
  const create = (body: Record<string, unknown>, a = acct) => t.api.post('/v1/keyword-rules', { auth: a.auth, body });
  const reply = (from: string, message: string, to = '61400000001', a = acct) => t.api.post('/v1/test-inbound', { auth: a.auth, body: { from, message, to } });
  /** The account's messages to a mobile, oldest first. */
  const sentTo = async (mobile: string, a = acct) =>
    ((await t.api.get('/v1/messages', { auth: a.auth })).body.results as Array<{ recipient_number: string; message_content: string; sender_id: string; cost: string }>)
      .filter((m) => m.recipient_number === mobile)
      .map((m) => ({ message: m.message_content, sender: m.sender_id, cost: m.cost }))
      .reverse();
  const unsubscribed = async (a = acct) => ((await t.api.get('/v1/unsubscribes', { auth: a.auth })).body.results as Array<{ number: string }>).map((u) => u.number);
  const listMembers = async (list_id: number, a = acct) =>
    ((await t.api.get('/v1/list-contacts', { auth: a.auth, query: { list_id } })).body.results as Array<{ number: string }>).map((c) => c.number);

  describe('the API', () => {
    it('creates rules in order, lists them with the built-in keywords, inserts at a position and deletes', async () => {
      const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Club' } })).body.list_id;
      const join = await create({ match: 'first_word', keyword: 'join', reply: 'Welcome to the club', add_to_list_id: list_id, number: '0400 000 001' });
      expect(join.status).toBe(200);
      expect(join.body).toEqual({
        status: 'complete',
        rule_id: expect.any(Number),
        position: 1,
        match: 'first_word',
        keyword: 'JOIN',
        number: '61400000001',
        reply: 'Welcome to the club',
        add_to_list_id: list_id,
        remove_from_list_id: null,
        opt_out: false,
        opt_in: false,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      });
      const win = (await create({ match: 'pattern', keyword: 'win*', reply: 'Good luck' })).body;
      const first = (await create({ match: 'exact', keyword: 'pizza', position: 1 })).body;
      expect(first.position).toBe(1);
      const listed = (await rules()).body;
      expect(listed.results.map((r: { keyword: string; position: number }) => [r.position, r.keyword])).toEqual([
        [1, 'PIZZA'],
        [2, 'JOIN'],
        [3, 'WIN*'],
      ]);
      expect(listed.built_in).toEqual([
        { keyword: 'START', words: ['START', 'UNSTOP'], action: 'Opts the number back in and confirms it' },
        { keyword: 'HELP', words: ['HELP', 'INFO'], action: 'Answers with the business name and how to opt out' },
      ]);
      const deleted = await t.api.delete('/v1/keyword-rules', { auth: acct.auth, body: { rule_id: join.body.rule_id } });
      expect(deleted.body).toEqual({ status: 'complete', rule_id: join.body.rule_id, deleted: true });
      expect((await rules()).body.results.map((r: { rule_id: number; position: number }) => [r.position, r.rule_id])).toEqual([
        [1, first.rule_id],
        [2, win.rule_id],
      ]);
      const again = await t.api.delete('/v1/keyword-rules', { auth: acct.auth, body: { rule_id: join.body.rule_id } });
      expect([again.status, again.body]).toEqual([404, { error: 'Keyword rule not found' }]);
    });

    it.each(INVALID_RULES)('answers 400 for %j', async (body, error) => {
      const res = await create(body);
      expect([res.status, res.body]).toEqual([400, { error }]);
      expect((await rules()).body.results).toEqual([]);
    });

    it('answers 404 for a list that is not the account’s', async () => {
      const other = await createAccount(t.app, { test: true });
      const foreign = (await t.api.post('/v1/lists', { auth: other.auth, body: { name: 'Theirs' } })).body.list_id;
      const res = await create({ match: 'exact', keyword: 'JOIN', add_to_list_id: foreign });
      expect([res.status, res.body]).toEqual([404, { error: 'List not found' }]);
    });

    it('keeps rules to their account', async () => {
      const other = await createAccount(t.app, { test: true });
      const mine = (await create({ match: 'exact', keyword: 'MINE' })).body;
      expect((await rules(other)).body.results).toEqual([]);
      const res = await t.api.delete('/v1/keyword-rules', { auth: other.auth, body: { rule_id: mine.rule_id } });
      expect(res.status).toBe(404);
      expect((await rules()).body.results).toHaveLength(1);
    });

    it('changes a rule in place, replacing its keyword and actions, and moves it with position', async () => {
      const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Club' } })).body.list_id;
      const [a, b, c] = [
        (await create({ match: 'exact', keyword: 'A' })).body,
        (await create({ match: 'exact', keyword: 'B' })).body,
        (await create({ match: 'exact', keyword: 'C' })).body,
      ];
      const changed = await t.api.patch('/v1/keyword-rules', {
        auth: acct.auth,
        body: { rule_id: b.rule_id, match: 'first_word', keyword: 'join', reply: 'Welcome', add_to_list_id: list_id, number: '0400000002' },
      });
      expect([changed.status, changed.body]).toEqual([200, { ...b, match: 'first_word', keyword: 'JOIN', reply: 'Welcome', add_to_list_id: list_id, number: '61400000002' }]);
      await reply('61412345001', 'join us', '61400000002');
      expect(await listMembers(list_id)).toEqual(['61412345001']);
      const order = async () => (await rules()).body.results.map((r: { rule_id: number; position: number }) => [r.position, r.rule_id]);
      expect(await order()).toEqual([
        [1, a.rule_id],
        [2, b.rule_id],
        [3, c.rule_id],
      ]);
      // Up to the top, then past the end (last); an action left out is off.
      const moved = await t.api.patch('/v1/keyword-rules', { auth: acct.auth, body: { rule_id: c.rule_id, match: 'exact', keyword: 'C', position: 1 } });
      expect(moved.body).toMatchObject({ position: 1, keyword: 'C' });
      expect(await order()).toEqual([
        [1, c.rule_id],
        [2, a.rule_id],
        [3, b.rule_id],
      ]);
      const down = await t.api.patch('/v1/keyword-rules', { auth: acct.auth, body: { rule_id: c.rule_id, match: 'exact', keyword: 'C', position: 50 } });
      expect(down.body.position).toBe(3);
      expect(await order()).toEqual([
        [1, a.rule_id],
        [2, b.rule_id],
        [3, c.rule_id],
      ]);
      const cleared = await t.api.patch('/v1/keyword-rules', { auth: acct.auth, body: { rule_id: b.rule_id, match: 'first_word', keyword: 'JOIN' } });
      expect(cleared.body).toMatchObject({ position: 2, number: null, reply: null, add_to_list_id: null });
      // The changed rule is the one replies meet: JOIN no longer adds to the list.
      await reply('61412345002', 'join', '61400000002');
      expect(await listMembers(list_id)).toEqual(['61412345001']);
      expect((await rules()).body.results.map((r: { keyword: string }) => r.keyword)).toEqual(['A', 'JOIN', 'C']);
    });

    it.each(INVALID_RULES)('answers 400 for a change to %j and changes nothing', async (body, error) => {
      const rule = (await create({ match: 'exact', keyword: 'KEEP', reply: 'Kept' })).body;
      const res = await t.api.patch('/v1/keyword-rules', { auth: acct.auth, body: { rule_id: rule.rule_id, ...body } });
      expect([res.status, res.body]).toEqual([400, { error }]);
      const { status: _status, ...stored } = rule;
      expect((await rules()).body.results).toEqual([stored]);
    });

    it('answers 400 without a rule_id and 404 for a rule that is not the account’s', async () => {
      const other = await createAccount(t.app, { test: true });
      const theirs = (await create({ match: 'exact', keyword: 'THEIRS' }, other)).body;
      const missing = await t.api.patch('/v1/keyword-rules', { auth: acct.auth, body: { match: 'exact', keyword: 'X' } });
      expect([missing.status, missing.body]).toEqual([400, { error: 'rule_id is required' }]);
      const foreign = await t.api.patch('/v1/keyword-rules', { auth: acct.auth, body: { rule_id: theirs.rule_id, match: 'exact', keyword: 'MINE' } });
      expect([foreign.status, foreign.body]).toEqual([404, { error: 'Keyword rule not found' }]);
      expect((await rules(other)).body.results[0].keyword).toBe('THEIRS');
    });

    it('answers 409 past 100 rules', async () => {
      await t.app
        .get(DataSource)
        .query(`INSERT INTO keyword_rules (account_id, position, match, keyword) SELECT $1, g, 'exact', 'K' || g FROM generate_series(1, 100) g`, [acct.accountId]);
      const res = await create({ match: 'exact', keyword: 'ONE MORE' });
      expect([res.status, res.body]).toEqual([409, { error: 'An account may hold at most 100 keyword rules' }]);
    });
  });

  describe('matching and actions', () => {
    it('auto-replies from the number replied to, priced like any message, and names the rule on the inbound webhook', async () => {
      expect((await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { inbound: 'http://127.0.0.1:9/inbound' } })).status).toBe(200);
      const rule = (await create({ match: 'first_word', keyword: 'YES', reply: 'Booked. See you Friday!' })).body;
      const res = await reply('0412000101', 'yes, please', '61400000002');
      expect(res.body).toMatchObject({ status: 'complete', type: 'inbound' });
      expect(await sentTo('61412000101')).toEqual([{ message: 'Booked. See you Friday!', sender: '61400000002', cost: '1.00' }]);
      const [{ kind }] = await t.app.get(DataSource).query(`SELECT s.kind FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.account_id = $1`, [acct.accountId]);
      expect(kind).toBe('reply');
      // No worker delivers it here: the event as written is the payload the inbound URL gets.
      const [event] = await t.app.get(DataSource).query(`SELECT body FROM webhook_events WHERE account_id = $1 AND kind = 'inbound'`, [acct.accountId]);
      const payload = JSON.parse(event.body);
      expect(payload).toMatchObject({ message: 'yes, please', type: 'inbound', keyword_rule: { rule_id: rule.rule_id, keyword: 'YES' } });
      expect(t.api.webhookProblem('inboundMessage', payload)).toBeNull();
    });

    it.each([
      ['exact', 'RED WINE', 'red wine!', true],
      ['exact', 'RED WINE', 'red wine please', false],
      ['first_word', 'RED', 'Red wine please', true],
      ['first_word', 'WINE', 'Red wine', false],
      ['pattern', '*WINE*', 'some red wine please', true],
      ['pattern', 'B?T', 'bet', true],
      ['pattern', 'B?T', 'boat', false],
    ])('%s %s against %j: answered %s', async (match, keyword, text, answered) => {
      await create({ match, keyword, reply: 'Cheers' });
      await reply('0412000102', text);
      expect((await sentTo('61412000102')).length).toBe(answered ? 1 : 0);
    });

    it('tries rules in order: the first match acts, and a rule on one number ignores replies to another', async () => {
      await create({ match: 'exact', keyword: 'DEAL', reply: 'Number two deal', number: '61400000002' });
      await create({ match: 'pattern', keyword: 'DEAL*', reply: 'Any deal' });
      await create({ match: 'exact', keyword: 'DEAL', reply: 'Never reached' });
      await reply('0412000103', 'deal', '61400000002');
      await reply('0412000104', 'deal', '61400000001');
      expect((await sentTo('61412000103')).map((m) => m.message)).toEqual(['Number two deal']);
      expect((await sentTo('61412000104')).map((m) => m.message)).toEqual(['Any deal']);
    });

    it('adds to a list (making the contact) and removes from another', async () => {
      const vip = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'VIP' } })).body.list_id;
      const waiting = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Waiting' } })).body.list_id;
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: waiting, number: '0412000105' } });
      await create({ match: 'first_word', keyword: 'VIP', add_to_list_id: vip, remove_from_list_id: waiting });
      await reply('0412000105', 'VIP');
      await reply('0412000106', 'vip me');
      expect((await listMembers(vip)).sort()).toEqual(['61412000105', '61412000106']);
      expect(await listMembers(waiting)).toEqual([]);
    });

    it('opts out with a rule, its reply being the only text the opted-out number gets', async () => {
      await create({ match: 'exact', keyword: 'NO MORE', opt_out: true, reply: 'You will hear no more from us' });
      await create({ match: 'exact', keyword: 'PING', reply: 'Pong' });
      const res = await reply('0412000107', 'no more');
      expect(res.body.type).toBe('unsubscribe');
      expect(await unsubscribed()).toEqual(['61412000107']);
      await reply('0412000107', 'ping');
      await reply('0412000107', 'help');
      expect((await sentTo('61412000107')).map((m) => m.message)).toEqual(['You will hear no more from us']);
    });

    it('never lets a rule override STOP: the number opts out and a STOP rule’s reply is its confirmation', async () => {
      const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Any' } })).body.list_id;
      await create({ match: 'pattern', keyword: 'S*', add_to_list_id: list_id, reply: 'Stopped. Text START to come back.' });
      const res = await reply('0412000108', 'STOP');
      expect(res.body.type).toBe('unsubscribe');
      expect(await unsubscribed()).toEqual(['61412000108']);
      expect(await listMembers(list_id)).toEqual([]);
      expect((await sentTo('61412000108')).map((m) => m.message)).toEqual(['Stopped. Text START to come back.']);
    });

    it('sends no confirmation for STOP unless the account chose one', async () => {
      await reply('0412000109', 'stop');
      expect(await sentTo('61412000109')).toEqual([]);
    });

    it('opts back in with START (or UNSTOP) and confirms, naming the business', async () => {
      await reply('0412000110', 'STOP');
      await reply('0412000110', 'start');
      expect(await unsubscribed()).toEqual([]);
      expect((await sentTo('61412000110')).map((m) => m.message)).toEqual([`${BUSINESS}: you are subscribed again. Reply STOP to opt out.`]);
      await reply('0412000111', 'STOP');
      await reply('0412000111', 'Unstop');
      expect(await unsubscribed()).toEqual([]);
    });

    it('answers HELP and INFO with the business name and how to opt out', async () => {
      await reply('0412000112', 'help');
      await reply('0412000113', 'info please');
      const text = `${BUSINESS}: this number sends you our messages. Reply STOP to opt out, START to opt back in.`;
      expect((await sentTo('61412000112')).map((m) => m.message)).toEqual([text]);
      expect((await sentTo('61412000113')).map((m) => m.message)).toEqual([text]);
    });

    it('lets an account override a built-in keyword with its own rule', async () => {
      await create({ match: 'first_word', keyword: 'HELP', reply: 'Call us on 1300 000 000' });
      await create({ match: 'first_word', keyword: 'START', opt_in: true, reply: 'Welcome back' });
      await reply('0412000114', 'help');
      await reply('0412000114', 'STOP');
      await reply('0412000114', 'START');
      expect((await sentTo('61412000114')).map((m) => m.message)).toEqual(['Call us on 1300 000 000', 'Welcome back']);
      expect(await unsubscribed()).toEqual([]);
    });

    it('never answers a reply that repeats one of its auto-replies (another machine echoing)', async () => {
      await create({ match: 'pattern', keyword: '*', reply: 'unused' }).then((r) => expect(r.status).toBe(400));
      await create({ match: 'pattern', keyword: '*THANKS*', reply: 'THANKS for your message' });
      await reply('0412000115', 'thanks!');
      await reply('0412000115', 'THANKS for your message');
      expect((await sentTo('61412000115')).map((m) => m.message)).toEqual(['THANKS for your message']);
    });

    it('answers one number at most AUTO_REPLY_LIMIT times per window, so two auto-responders stop', async () => {
      await create({ match: 'pattern', keyword: '*AUTO*', reply: 'We got your auto message' });
      for (let i = 0; i < 6; i++) await reply('0412000116', `Auto-reply ${i}: I am away`);
      expect(await sentTo('61412000116')).toHaveLength(3);
      // Another number is answered as before.
      await reply('0412000117', 'auto');
      expect(await sentTo('61412000117')).toHaveLength(1);
    });

    it('stores the reply and its actions but sends no auto-reply a live account cannot pay for, charging nothing', async () => {
      const live = await createAccount(t.app, { credits: 0, senders: ['61400000031'] });
      const list_id = (await t.api.post('/v1/lists', { auth: live.auth, body: { name: 'Club' } })).body.list_id;
      await create({ match: 'exact', keyword: 'JOIN', reply: 'Welcome', add_to_list_id: list_id }, live);
      const stored = await t.app.get(InboundService).receive({ from: '61412000118', to: '61400000031', text: 'JOIN', receivedAt: new Date() });
      expect(stored).toMatchObject({ type: 'inbound', accountId: live.accountId });
      expect((await t.api.get('/v1/inbound', { auth: live.auth })).body.total).toBe(1);
      expect(await listMembers(list_id, live)).toEqual(['61412000118']);
      expect(await sentTo('61412000118', live)).toEqual([]);
      const [{ sends }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS sends FROM sends WHERE account_id = $1`, [live.accountId]);
      expect(sends).toBe(0);
    });

    it('charges a live account’s auto-reply with a ledger row', async () => {
      const live = await createAccount(t.app, { credits: 5, senders: ['61400000032'] });
      await create({ match: 'exact', keyword: 'JOIN', reply: 'Welcome' }, live);
      await t.app.get(InboundService).receive({ from: '61412000119', to: '61400000032', text: 'join', receivedAt: new Date() });
      expect((await t.api.get('/v1/account', { auth: live.auth })).body.credit_balance).toBe(4);
      const ledger = await t.app.get(DataSource).query(`SELECT amount::int, reason FROM credit_ledger WHERE account_id = $1 AND kind = 'debit'`, [live.accountId]);
      expect(ledger).toEqual([{ amount: -100, reason: 'auto-reply' }]);
    });
  });
});
