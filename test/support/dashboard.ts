import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { UsersService } from '../../src/users/users.service';
import { UserLinksService } from '../../src/users/user-links.service';
import { operatorActor } from '../../src/users/actor';
import { PageClient } from './page-client';
import { createAccount, TestAccount } from './test-app';

export const PASSWORD = 'correct horse battery staple';

let counter = 0;

/** A unique email for this test run. */
export function emailFor(role: string): string {
  return `${role}.${process.pid}.${++counter}@example.com.au`;
}

export interface DashboardAccount extends TestAccount {
  ownerEmail: string;
}

/** An account with an owner who has set their password (through the same services the CLI and the link page use). */
export async function accountWithOwner(app: NestFastifyApplication, options: Parameters<typeof createAccount>[1] = {}): Promise<DashboardAccount> {
  const account = await createAccount(app, options);
  const ownerEmail = emailFor('owner');
  const { link } = await app.get(UsersService).createByOperator(account.accountId, { email: ownerEmail, owner: true });
  await setPasswordByLink(app, link);
  return { ...account, ownerEmail };
}

/** A signed-up user of the account with these permissions. */
export async function userWith(app: NestFastifyApplication, accountId: number, permissions: string[]): Promise<string> {
  const email = emailFor(permissions.join('-') || 'viewer');
  const { link } = await app.get(UsersService).invite(operatorActor(accountId), { email, permissions });
  await setPasswordByLink(app, link);
  return email;
}

export async function setPasswordByLink(app: NestFastifyApplication, link: string, password = PASSWORD): Promise<void> {
  await app.get(UserLinksService).setPassword(link.split('/').pop()!, password, password, '127.0.0.1');
}

/** A browser (without JavaScript) signed in as this user. */
export async function signedIn(app: NestFastifyApplication, email: string, password = PASSWORD, remoteAddress = '127.0.0.1'): Promise<PageClient> {
  const browser = new PageClient(app, { remoteAddress });
  await browser.get('/sign-in');
  const res = await browser.post('/sign-in', { email, password });
  if (res.status !== 303) throw new Error(`sign-in as ${email} answered ${res.status}: ${res.html.slice(0, 500)}`);
  await browser.get(res.location!);
  return browser;
}
