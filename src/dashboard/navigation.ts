import type { Permission, Principal } from '../users/permissions';
import { canAny } from '../users/permissions';

/** Metadata key of the page a @DashboardController serves. */
export const DASHBOARD_PAGE = 'dashboardPage';

/** Who may open a page: anyone signed in, the owner only, or holders of any of some permissions (the owner holds all). */
export type PageAccess = 'signed_in' | 'owner' | { anyOf: readonly Permission[] };

export interface DashboardPage {
  path: string;
  label: string;
  access: PageAccess;
  /** Shown in the main navigation (default true). */
  inNav?: boolean;
}

/**
 * Every page group of the dashboard, in navigation order. Adding a page is one entry here plus its
 * controller (`@DashboardController(PAGES.x)` in src/dashboard/<group>/, listed in DashboardModule):
 * the entry gates the navigation link and the routes alike.
 */
export const PAGES = {
  overview: { path: '/overview', label: 'Overview', access: 'signed_in' },
  send: { path: '/send', label: 'Send', access: { anyOf: ['send_messages'] } },
  campaigns: { path: '/campaigns', label: 'Campaigns', access: 'signed_in' },
  reports: { path: '/reports', label: 'Reports', access: 'signed_in' },
  contacts: { path: '/contacts', label: 'Contacts', access: { anyOf: ['manage_contacts'] } },
  contactLists: { path: '/contacts/lists', label: 'Lists', access: { anyOf: ['manage_contacts'] }, inNav: false },
  contactImports: { path: '/contacts/imports', label: 'Imports', access: { anyOf: ['manage_contacts'] }, inNav: false },
  optOuts: { path: '/contacts/opt-outs', label: 'Opt-outs', access: { anyOf: ['manage_contacts'] }, inNav: false },
  messages: { path: '/messages', label: 'Messages', access: 'signed_in' },
  keywords: { path: '/keywords', label: 'Keywords', access: { anyOf: ['manage_contacts'] } },
  inbox: { path: '/inbox', label: 'Inbox', access: { anyOf: ['read_inbox'] } },
  apiKeys: { path: '/settings/api', label: 'API keys', access: { anyOf: ['manage_api_keys', 'manage_billing'] } },
  webhooks: { path: '/settings/webhooks', label: 'Webhooks', access: { anyOf: ['manage_settings'] } },
  timeZone: { path: '/settings/time-zone', label: 'Time zone', access: { anyOf: ['manage_settings'] } },
  quietHours: { path: '/settings/quiet-hours', label: 'Quiet hours', access: { anyOf: ['manage_settings'] } },
  security: { path: '/settings/security', label: 'Security', access: 'owner' },
  senders: { path: '/senders', label: 'Sender IDs', access: { anyOf: ['manage_senders'] } },
  billing: { path: '/billing', label: 'Billing', access: { anyOf: ['manage_billing'] } },
  users: { path: '/users', label: 'Users', access: 'owner' },
  // Reached from the overview of a test account; asking to go live commits the business, so the owner alone.
  goLive: { path: '/go-live', label: 'Go live', access: 'owner', inNav: false },
  audit: { path: '/audit', label: 'Audit log', access: 'owner' },
  profile: { path: '/profile', label: 'Your profile', access: 'signed_in', inNav: false },
} satisfies Record<string, DashboardPage>;

export function mayOpen(principal: Principal, access: PageAccess): boolean {
  if (access === 'signed_in') return true;
  if (access === 'owner') return principal.isOwner;
  return canAny(principal, access.anyOf);
}

export interface NavLink {
  label: string;
  href: string;
  current: boolean;
}

/** The links this person may follow, the one for the current path marked. */
export function navigationFor(principal: Principal, currentPath: string): NavLink[] {
  return Object.values(PAGES as Record<string, DashboardPage>)
    .filter((page) => page.inNav !== false && mayOpen(principal, page.access))
    .map((page) => ({ label: page.label, href: page.path, current: currentPath === page.path || currentPath.startsWith(`${page.path}/`) }));
}

/** The labels of the pages in the navigation that every signed-in user may open, whatever their permissions. */
export function pagesForEveryone(): string[] {
  return Object.values(PAGES as Record<string, DashboardPage>)
    .filter((page) => page.inNav !== false && page.access === 'signed_in')
    .map((page) => page.label);
}
