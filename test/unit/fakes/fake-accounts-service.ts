import { Account } from '../../../src/accounts/account.entity';
import type { AccountsService } from '../../../src/accounts/accounts.service';
import type { Tx } from '../../../src/database/unit-of-work';
import { openTx } from './fake-unit-of-work';
import { UnexpectedCall } from './strict';

/** A live account with 100.00 credits, 1 credit a part; override what the test is about. */
export function anAccount(overrides: Partial<Account> = {}): Account {
  return Object.assign(new Account(), {
    id: 1,
    name: 'Acme',
    isTest: false,
    allowDuplicateContacts: false,
    creditBalance: 10_000,
    partRate: 100,
    optoutCode: 'oc1',
    webhookInboundUrl: '',
    webhookStatusUrl: '',
    webhookSecret: null,
    billingEmail: null,
    createdAt: new Date('2029-01-01T00:00:00Z'),
    ...overrides,
  });
}

/** AccountsService.get over the given accounts; any other account is an unexpected call. */
export class FakeAccountsService implements Pick<AccountsService, 'get'> {
  /** Every read, with the transaction it was made in (undefined: outside any). */
  readonly reads: Array<{ accountId: number; tx: Tx | undefined }> = [];
  private readonly accounts = new Map<number, Account>();

  constructor(...accounts: Account[]) {
    for (const account of accounts) this.accounts.set(account.id, account);
  }

  async get(accountId: number, tx?: Tx): Promise<Account> {
    const account = this.accounts.get(accountId);
    if (!account) throw new UnexpectedCall(`AccountsService.get(${accountId})`, 'no such account in this test');
    if (tx !== undefined) openTx('AccountsService.get', tx);
    this.reads.push({ accountId, tx });
    return Object.assign(new Account(), account);
  }

  /** Changes a stored account, as another request would. */
  update(accountId: number, changes: Partial<Account>): void {
    Object.assign(this.accounts.get(accountId)!, changes);
  }
}
