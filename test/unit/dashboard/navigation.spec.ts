import { mayOpen, navigationFor, PAGES, pagesForEveryone } from '../../../src/dashboard/navigation';
import { parseDailyLimit } from '../../../src/dashboard/settings-api/api-key-actions.service';

describe(navigationFor.name, () => {
  it('lists the pages a person may open, in order, marking the current one', () => {
    expect(navigationFor({ isOwner: true, permissions: [] }, '/settings/api/keys/3/revoke')).toEqual([
      { label: 'Overview', href: '/overview', current: false },
      { label: 'Send', href: '/send', current: false },
      { label: 'Campaigns', href: '/campaigns', current: false },
      { label: 'Reports', href: '/reports', current: false },
      { label: 'Contacts', href: '/contacts', current: false },
      { label: 'Messages', href: '/messages', current: false },
      { label: 'Keywords', href: '/keywords', current: false },
      { label: 'Inbox', href: '/inbox', current: false },
      { label: 'API keys', href: '/settings/api', current: true },
      { label: 'Webhooks', href: '/settings/webhooks', current: false },
      { label: 'Time zone', href: '/settings/time-zone', current: false },
      { label: 'Quiet hours', href: '/settings/quiet-hours', current: false },
      { label: 'Security', href: '/settings/security', current: false },
      { label: 'Sender IDs', href: '/senders', current: false },
      { label: 'Billing', href: '/billing', current: false },
      { label: 'Users', href: '/users', current: false },
      { label: 'Audit log', href: '/audit', current: false },
    ]);
    expect(navigationFor({ isOwner: false, permissions: ['manage_billing'] }, '/overview').map((l) => l.href)).toEqual([
      '/overview',
      '/campaigns',
      '/reports',
      '/messages',
      '/settings/api',
      '/billing',
    ]);
    expect(navigationFor({ isOwner: false, permissions: [] }, '/messages').map((l) => [l.href, l.current])).toEqual([
      ['/overview', false],
      ['/campaigns', false],
      ['/reports', false],
      ['/messages', true],
    ]);
  });

  it('shows the Inbox to holders of read_inbox only', () => {
    expect(navigationFor({ isOwner: false, permissions: ['read_inbox'] }, '/inbox/61412345678').map((l) => [l.href, l.current])).toEqual([
      ['/overview', false],
      ['/campaigns', false],
      ['/reports', false],
      ['/messages', false],
      ['/inbox', true],
    ]);
  });

  it('shows Contacts to holders of manage_contacts, marked current on its lists', () => {
    expect(navigationFor({ isOwner: false, permissions: ['manage_contacts'] }, '/contacts/lists/4').map((l) => [l.href, l.current])).toEqual([
      ['/overview', false],
      ['/campaigns', false],
      ['/reports', false],
      ['/contacts', true],
      ['/messages', false],
      ['/keywords', false],
    ]);
    expect(mayOpen({ isOwner: false, permissions: ['manage_contacts'] }, PAGES.contactLists.access)).toBe(true);
    expect(mayOpen({ isOwner: false, permissions: ['read_inbox', 'send_messages'] }, PAGES.contacts.access)).toBe(false);
    expect(mayOpen({ isOwner: false, permissions: ['read_inbox', 'send_messages'] }, PAGES.keywords.access)).toBe(false);
  });

  it('gates each page by its access rule', () => {
    const none = { isOwner: false, permissions: [] };
    expect(mayOpen(none, PAGES.profile.access)).toBe(true);
    expect(mayOpen(none, PAGES.users.access)).toBe(false);
    expect(mayOpen(none, PAGES.campaigns.access)).toBe(true);
    expect(mayOpen(none, PAGES.send.access)).toBe(false);
    expect(mayOpen({ isOwner: false, permissions: ['send_messages'] }, PAGES.send.access)).toBe(true);
    expect(mayOpen({ isOwner: false, permissions: ['manage_settings'] }, PAGES.webhooks.access)).toBe(true);
    expect(mayOpen({ isOwner: false, permissions: ['manage_settings'] }, PAGES.apiKeys.access)).toBe(false);
    expect(mayOpen({ isOwner: false, permissions: ['manage_senders'] }, PAGES.senders.access)).toBe(true);
    expect(mayOpen({ isOwner: false, permissions: ['manage_api_keys', 'manage_billing', 'manage_settings'] }, PAGES.senders.access)).toBe(false);
    expect(mayOpen({ isOwner: false, permissions: ['manage_billing'] }, PAGES.billing.access)).toBe(true);
    expect(mayOpen({ isOwner: false, permissions: ['manage_settings'] }, PAGES.timeZone.access)).toBe(true);
    expect(mayOpen({ isOwner: false, permissions: ['manage_api_keys', 'manage_billing', 'send_messages'] }, PAGES.timeZone.access)).toBe(false);
    expect(mayOpen({ isOwner: false, permissions: ['manage_api_keys', 'manage_senders', 'manage_settings'] }, PAGES.billing.access)).toBe(false);
    expect(navigationFor({ isOwner: false, permissions: ['manage_senders'] }, '/senders/3/deactivate').map((l) => [l.href, l.current])).toEqual([
      ['/overview', false],
      ['/campaigns', false],
      ['/reports', false],
      ['/messages', false],
      ['/senders', true],
    ]);
  });
});

describe(parseDailyLimit.name, () => {
  it.each([
    ['500', 50_000],
    ['250.5', 25_050],
    ['$1,000.00', 100_000],
    ['0', 0],
    ['1000000', 100_000_000],
    ['1000000.01', null],
    ['-1', null],
    ['1.234', null],
    ['lots', null],
  ])('%j → %j cents', (text, cents) => {
    expect(parseDailyLimit(text)).toBe(cents);
  });
});

describe(pagesForEveryone.name, () => {
  it('names the navigation’s pages that need no permission, in order', () => {
    expect(pagesForEveryone()).toEqual(['Overview', 'Campaigns', 'Reports', 'Messages']);
    for (const label of pagesForEveryone()) expect(navigationFor({ isOwner: false, permissions: [] }, '/').map((l) => l.label)).toContain(label);
  });
});
