import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { DataSource } from 'typeorm';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

/** The target of the page's link with this rel (next, prev), as a browser reads the attribute. */
function hrefOf(html: string, rel: string): string {
  const found = [...html.matchAll(/href="([^"]+)" rel="(\w+)"/g)].find((m) => m[2] === rel);
  if (!found) throw new Error(`no rel="${rel}" link on the page`);
  return found[1].replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
}

// Signing people in hashes passwords (scrypt) on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Contacts and Lists pages without JavaScript: search, add, edit, delete, membership, paging, and who may use them. */
describe('Dashboard: contacts and lists', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let browser: PageClient;

  beforeAll(async () => {
    t = await startTestApp();
    acct = await accountWithOwner(t.app);
    browser = await contactsUser(acct);
  });
  afterAll(() => t.close());

  async function contactsUser(account: DashboardAccount): Promise<PageClient> {
    return signedIn(t.app, await userWith(t.app, account.accountId, ['manage_contacts']));
  }
  /** Posts a form from a page, as a browser would (a fresh CSRF token first). */
  async function submit(browser: PageClient, page: string, action: string, fields: Record<string, string>) {
    await browser.get(page);
    return browser.post(action, fields);
  }
  const addContact = async (acct: { auth: string }, body: Record<string, string>) => (await t.api.post('/v1/contacts', { auth: acct.auth, body })).body.contact_id as number;

  it('adds a contact from the form, refusing a bad number and a duplicate with the API’s texts, and keeps what was typed', async () => {
    const bad = await submit(browser, '/contacts/new', '/contacts', { number: '0298765432', first_name: 'Ann' });
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain('Invalid phone number format');
    expect(bad.html).toContain('value="Ann"');
    const empty = await browser.post('/contacts', { number: '' });
    expect([empty.status, textOf(empty.html).includes('Enter a mobile number')]).toEqual([400, true]);

    const added = await browser.post('/contacts', { number: '0412 600 001', first_name: 'Ann', company: 'Acme', field_3: 'VIP' });
    expect(added.status).toBe(303);
    expect(added.location).toMatch(/^\/contacts\/\d+\?notice=contact_added$/);
    const page = await browser.get(added.location!);
    expect(textOf(page.html)).toContain('Contact added.');
    expect(page.html).toContain('value="61412600001"');
    const api = await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412600001' } });
    expect(api.body.results[0]).toMatchObject({ first_name: 'Ann', company: 'Acme', field_3: 'VIP', last_name: '' });

    const twice = await submit(browser, '/contacts/new', '/contacts', { number: '+61412600001' });
    expect([twice.status, textOf(twice.html).includes('This phone number already exists in your contacts')]).toEqual([409, true]);
  });

  it('edits every field and the number, and deletes after a confirmation that says what it does', async () => {
    const id = await addContact(acct, { number: '0412600010', first_name: 'Bob' });
    await addContact(acct, { number: '0412600011' });
    const taken = await submit(browser, `/contacts/${id}`, `/contacts/${id}`, { number: '0412600011', first_name: 'Bob' });
    expect([taken.status, textOf(taken.html).includes('This phone number already exists in your contacts')]).toEqual([409, true]);

    const saved = await submit(browser, `/contacts/${id}`, `/contacts/${id}`, { number: '0412600012', first_name: 'Robert', last_name: 'Smith', other: 'Order 77' });
    expect(saved.location).toBe(`/contacts/${id}?notice=contact_saved`);
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412600012' } })).body.results[0]).toMatchObject({
      contact_id: id,
      first_name: 'Robert',
      last_name: 'Smith',
      other: 'Order 77',
    });

    const confirm = await browser.get(`/contacts/${id}/delete`);
    expect(textOf(confirm.html)).toContain('Delete 61412600012 ? The contact (Robert Smith) is deleted for good.');
    const deleted = await browser.post(`/contacts/${id}/delete`);
    expect(deleted.location).toBe('/contacts?notice=contact_deleted');
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412600012' } })).body.total).toBe(0);
    expect((await browser.get(`/contacts/${id}`)).status).toBe(404);
  });

  it('finds contacts by any field and by a number in any form, newest first, paged by 50', async () => {
    const acct = await accountWithOwner(t.app);
    const other = await createAccount(t.app);
    await addContact(other, { number: '0412600099', first_name: 'Zed' });
    await t.app.get(DataSource).query(
      `INSERT INTO contacts (account_id, number, first_name, company, field_5)
       SELECT $1, '614126' || lpad((1000 + i)::text, 5, '0'), 'Person' || i, CASE WHEN i % 2 = 1 THEN 'Odd Co' ELSE 'Even Co' END, CASE WHEN i = 7 THEN 'Ticket 4471' ELSE '' END
         FROM generate_series(0, 119) i ORDER BY i`,
      [acct.accountId],
    );
    const browser = await contactsUser(acct);
    const link = (html: string, rel: string) => hrefOf(html, rel);
    const numbersOn = (html: string) => [...html.matchAll(/class="mono" href="\/contacts\/\d+">(\d+)</g)].map((m) => m[1]);

    const first = await browser.get('/contacts');
    expect(textOf(first.html)).toContain('120 contacts');
    const firstPage = numbersOn(first.html);
    expect(firstPage).toHaveLength(50);
    expect(firstPage[0]).toBe('61412601119');
    expect(first.html).not.toContain('61412600099');
    const next = link(first.html, 'next');
    expect(next).toMatch(/^\/contacts\?before=\d+$/);
    const second = await browser.get(next);
    expect(numbersOn(second.html)[0]).toBe('61412601069');
    const back = link(second.html, 'prev');
    expect(back).toMatch(/^\/contacts\?after=\d+$/);
    expect(numbersOn((await browser.get(back)).html)).toEqual(firstPage);

    const search = async (q: string) => numbersOn((await browser.get(`/contacts?q=${encodeURIComponent(q)}`)).html);
    expect(await search('person17')).toEqual(['61412601017']);
    expect(await search('0412 601 01')).toHaveLength(10);
    expect(await search('+61 412 601 005')).toEqual(['61412601005']);
    expect(await search('4471')).toEqual(['61412601007']);
    expect(await search('zed')).toEqual([]);
    expect(await search('17')).toEqual(['61412601117', '61412601017']);
    expect(await search('100%')).toEqual([]);
    const odd = await browser.get('/contacts?q=odd+co');
    expect(numbersOn(odd.html)).toHaveLength(50);
    const oddNext = link(odd.html, 'next');
    expect(oddNext).toMatch(/^\/contacts\?q=odd\+co&before=\d+$/);
    const oddRest = numbersOn((await browser.get(oddNext)).html);
    expect(oddRest).toHaveLength(10);
    expect(oddRest.every((n) => Number(n.slice(-1)) % 2 === 1)).toBe(true);
    expect(textOf((await browser.get('/contacts?q=nobody')).html)).toContain('No contact matches “nobody”.');
  });

  it('finds a rare match among older contacts than the newest 2000 it reads in order', async () => {
    const acct = await accountWithOwner(t.app);
    const db = t.app.get(DataSource);
    await db.query(`INSERT INTO contacts (account_id, number, first_name) SELECT $1, '614127' || lpad(i::text, 5, '0'), 'Early' || i FROM generate_series(0, 59) i ORDER BY i`, [
      acct.accountId,
    ]);
    await db.query(`INSERT INTO contacts (account_id, number, first_name) SELECT $1, '614128' || lpad(i::text, 5, '0'), 'Later' || i FROM generate_series(0, 2099) i ORDER BY i`, [
      acct.accountId,
    ]);
    const browser = await contactsUser(acct);
    const numbersOn = (html: string) => [...html.matchAll(/class="mono" href="\/contacts\/\d+">(\d+)</g)].map((m) => m[1]);
    expect(numbersOn((await browser.get('/contacts?q=early17')).html)).toEqual(['61412700017']);
    const early = await browser.get('/contacts?q=early');
    expect(numbersOn(early.html)).toEqual(Array.from({ length: 50 }, (_, i) => `614127${String(59 - i).padStart(5, '0')}`));
    const rest = await browser.get(hrefOf(early.html, 'next'));
    expect(numbersOn(rest.html)).toEqual(Array.from({ length: 10 }, (_, i) => `614127${String(9 - i).padStart(5, '0')}`));
    expect(rest.html).not.toContain('rel="next"');
  });

  it('manages lists and membership from both sides: create, add by number, rename, remove, delete keeping or deleting contacts', async () => {
    const created = await submit(browser, '/contacts/lists', '/contacts/lists', { name: 'Spring customers' });
    expect(created.location).toMatch(/^\/contacts\/lists\/\d+\?notice=list_created$/);
    const listId = Number(/lists\/(\d+)/.exec(created.location!)![1]);
    const again = await browser.post('/contacts/lists', { name: ' Spring customers ' });
    expect(again.location).toBe(`/contacts/lists/${listId}?notice=list_exists`);

    const bad = await submit(browser, `/contacts/lists/${listId}`, `/contacts/lists/${listId}/members`, { number: '12345' });
    expect([bad.status, textOf(bad.html).includes('Invalid phone number format')]).toEqual([400, true]);
    expect((await browser.post(`/contacts/lists/${listId}/members`, { number: '0412600201' })).location).toBe(`/contacts/lists/${listId}?notice=member_added`);
    expect((await submit(browser, `/contacts/lists/${listId}`, `/contacts/lists/${listId}/members`, { number: '61412600201' })).location).toBe(
      `/contacts/lists/${listId}?notice=member_already`,
    );
    const contactId = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412600201' } })).body.results[0].contact_id;

    // From the contact's page: its lists, and another list made on the spot.
    const contactPage = await browser.get(`/contacts/${contactId}`);
    expect(textOf(contactPage.html)).toContain('Lists Spring customers Remove');
    expect((await browser.post(`/contacts/${contactId}/lists`, { new_list: 'VIP' })).location).toBe(`/contacts/${contactId}?notice=member_added`);
    expect((await submit(browser, `/contacts/${contactId}`, `/contacts/${contactId}/lists`, {})).status).toBe(400);
    const lists = await t.api.get('/v1/lists', { auth: acct.auth });
    expect(lists.body.results.map((l: { name: string; contact_count: number }) => [l.name, l.contact_count])).toEqual([
      ['VIP', 1],
      ['Spring customers', 1],
    ]);
    const vip = lists.body.results[0].list_id;
    expect((await submit(browser, `/contacts/${contactId}`, `/contacts/${contactId}/lists/${vip}/remove`, {})).location).toBe(`/contacts/${contactId}?notice=member_removed`);

    const renamed = await submit(browser, `/contacts/lists/${listId}`, `/contacts/lists/${listId}/name`, { name: 'VIP' });
    expect([renamed.status, textOf(renamed.html).includes('A list with this name already exists')]).toEqual([409, true]);
    expect((await browser.post(`/contacts/lists/${listId}/name`, { name: 'Autumn customers' })).location).toBe(`/contacts/lists/${listId}?notice=list_renamed`);
    const listPage = await browser.get(`/contacts/lists/${listId}`);
    expect(textOf(listPage.html)).toContain('Autumn customers 1 contact');
    expect(listPage.html).toContain('61412600201');

    const confirm = await browser.get(`/contacts/lists/${listId}/delete`);
    expect(textOf(confirm.html)).toContain('Its 1 contact Keep them in your contacts Delete them too, for good');
    expect((await browser.post(`/contacts/lists/${listId}/delete`, { delete_contacts: 'no' })).location).toBe('/contacts/lists?notice=list_deleted');
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412600201' } })).body.total).toBe(1);
    await submit(browser, '/contacts/lists', `/contacts/${contactId}/lists`, { list_id: String(vip) });
    await browser.get(`/contacts/lists/${vip}/delete`);
    expect((await browser.post(`/contacts/lists/${vip}/delete`, { delete_contacts: 'yes' })).location).toBe('/contacts/lists?notice=list_and_contacts_deleted');
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412600201' } })).body.total).toBe(0);
  });

  it('opens only for the owner and manage_contacts, refuses forged forms, and never shows another account’s contacts or lists', async () => {
    const other = await createAccount(t.app);
    const theirContact = await addContact(other, { number: '0412600301' });
    const theirList = (await t.api.post('/v1/lists', { auth: other.auth, body: { name: 'Theirs' } })).body.list_id;
    const owner = await signedIn(t.app, acct.ownerEmail);
    const contacts = browser;
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages', 'read_inbox', 'manage_senders']));
    for (const path of ['/contacts', '/contacts/new', '/contacts/lists']) {
      expect([path, (await owner.get(path)).status]).toEqual([path, 200]);
      expect([path, (await contacts.get(path)).status]).toEqual([path, 200]);
      const refused = await viewer.get(path);
      expect([path, refused.status, textOf(refused.html).includes('You do not have permission to do this')]).toEqual([path, 403, true]);
    }
    expect((await viewer.post('/contacts', { number: '0412600302' })).status).toBe(403);
    expect((await contacts.get('/overview')).html).toContain('<li><a href="/contacts"');
    expect((await viewer.get('/overview')).html).not.toContain('href="/contacts"');

    const forged = await contacts.post('/contacts', { number: '0412600303', _csrf: 'forged' });
    expect([forged.status, textOf(forged.html).includes('This form has expired')]).toEqual([403, true]);
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412600303' } })).body.total).toBe(0);

    expect((await contacts.get(`/contacts/${theirContact}`)).status).toBe(404);
    expect((await contacts.post(`/contacts/${theirContact}/delete`)).status).toBe(404);
    expect((await contacts.get(`/contacts/lists/${theirList}`)).status).toBe(404);
    await contacts.get('/contacts/lists');
    expect((await contacts.post(`/contacts/lists/${theirList}/delete`, { delete_contacts: 'yes' })).status).toBe(404);
    expect((await contacts.get('/contacts/abc')).status).toBe(404);
    expect((await t.api.get('/v1/contacts', { auth: other.auth })).body.total).toBe(1);
  });
});
