import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CardsService } from '../../src/payments/cards.service';
import type { ApiResponse } from './api-client';
import type { TestAccount, TestApp } from './test-app';

/** Saves a test card of the simulated provider to the account (what `card:add` does). */
export async function addCard(app: NestFastifyApplication, accountId: number, card = '4242424242424242') {
  const account = await app.get(AccountsService).get(accountId);
  return app.get(CardsService).addTestCard(account, card);
}

/** Switches purchases on for the account's key, with a daily limit in dollars (default 500). */
export async function enablePurchases(app: NestFastifyApplication, acct: TestAccount, dailyLimitDollars = 500): Promise<void> {
  await app.get(ApiKeysService).setPurchases(acct.username, true, Math.round(dailyLimitDollars * 100));
}

/** The Billing page's own key, as rendered into its Buy credits form. */
export function purchaseKeyOf(html: string): string {
  const key = /name="purchase_key" value="([^"]+)"/.exec(html)?.[1];
  if (!key) throw new Error('no purchase_key on the page');
  return key;
}

/** The saved cards the Billing page offers to pay with, in its order. */
export function cardIdsOf(html: string): string[] {
  return [...html.matchAll(/name="card_id" value="(\d+)"/g)].map((m) => m[1]);
}

let keys = 0;
/** A fresh Idempotency-Key. */
export function newKey(prefix = 'buy'): string {
  return `${prefix}-${process.pid}-${++keys}-${Date.now()}`;
}

export function buyCredits(t: TestApp, acct: TestAccount, body: unknown, key: string | null = newKey()): Promise<ApiResponse> {
  return t.api.post('/v1/credit-purchases', { auth: acct.auth, body, headers: key === null ? {} : { 'idempotency-key': key } });
}

export function buyNumber(t: TestApp, acct: TestAccount, body: unknown, key: string | null = newKey()): Promise<ApiResponse> {
  return t.api.post('/v1/dedicated-numbers', { auth: acct.auth, body, headers: key === null ? {} : { 'idempotency-key': key } });
}
