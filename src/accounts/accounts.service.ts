import { Injectable } from '@nestjs/common';
import { CreditsService } from '../billing/credits.service';
import { failure } from '../common/errors/error-catalogue';
import type { AustralianTimeZone } from '../common/time/australian-time-zones';
import { SendersService } from '../senders/senders.service';
import { Account } from './account.entity';
import { AccountSummary, AccountsRepository } from './accounts.repository';
import { toAccountView } from './accounts.mapper';
import { ApiKeysService, IssuedApiKey } from './api-keys.service';
import { Tx, UnitOfWork } from '../database/unit-of-work';

/**
 * The Sender ID a signed-up test account may send from before any registration: test accounts reach no
 * carrier, so no one sees it. It is for the sandbox only: a live account's senders are registered.
 */
export const SANDBOX_SENDER = 'Sandbox';

export interface NewAccount {
  name: string;
  isTest: boolean;
  allowDuplicateContacts: boolean;
  creditsHundredths: number;
  senders: string[];
}

@Injectable()
export class AccountsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly senders: SendersService,
    private readonly credits: CreditsService,
  ) {}

  async show(accountId: number) {
    return toAccountView(await this.get(accountId));
  }

  async get(accountId: number, tx?: Tx): Promise<Account> {
    const account = await this.accounts.findById(accountId, tx);
    if (!account) throw failure('accountNotFound', accountId);
    return account;
  }

  /** The account whose `{optout}` link carries this code; null for none. */
  async findByOptoutCode(code: string): Promise<{ id: number; name: string } | null> {
    const account = await this.accounts.findByOptoutCode(code);
    return account ? { id: account.id, name: account.name } : null;
  }

  /** The platform's own account, which sends the service's own texts (made on first use). */
  async systemAccountId(tx?: Tx): Promise<number> {
    return this.accounts.systemAccountId(tx);
  }

  /** Account, its active senders, opening credits and a first API key, all or nothing (in the caller's transaction when given one). */
  async create(input: NewAccount, tx?: Tx): Promise<{ account: Account; key: IssuedApiKey }> {
    return this.uow.runIn(tx, async (m) => {
      const account = await this.accounts.insert({ name: input.name, isTest: input.isTest, allowDuplicateContacts: input.allowDuplicateContacts }, m);
      await this.senders.addAll(account.id, input.senders, undefined, m);
      if (input.creditsHundredths > 0) {
        account.creditBalance = await this.credits.grant(account.id, input.creditsHundredths, 'opening balance', 'account:create', m);
      }
      const key = await this.apiKeys.issue(account.id, 'default', m);
      return { account, key };
    });
  }

  /**
   * Sign-up: a test account (sandbox: delivers nothing, costs nothing) without credits or keys (its owner
   * creates the first key), with the sandbox Sender ID so its first send works at once.
   */
  async openTestAccount(name: string, tx: Tx): Promise<Account> {
    const account = await this.accounts.insert({ name, isTest: true, allowDuplicateContacts: false }, tx);
    await this.senders.add(account.id, SANDBOX_SENDER, 'alpha', tx);
    return account;
  }

  /**
   * Going live: the account stops being a test account (same keys; its messages now reach carriers and
   * cost credits) and loses the sandbox Sender ID, so its senders are registered ones. False, and
   * nothing changed, when it was already live.
   */
  async makeLive(accountId: number, tx: Tx): Promise<boolean> {
    if (!(await this.accounts.makeLive(accountId, tx))) return false;
    const sandbox = await this.senders.lockByValue(accountId, SANDBOX_SENDER, tx);
    if (sandbox && sandbox.status !== 'removed') await this.senders.deactivate(sandbox.id, tx);
    return true;
  }

  /** The zone its pages and exports show time in (an Australian zone; the caller checked it). */
  async setTimeZone(accountId: number, timeZone: AustralianTimeZone, tx: Tx): Promise<void> {
    await this.accounts.setTimeZone(accountId, timeZone, tx);
  }

  /** The owner's require-two-factor switch; whether it changed. */
  async setRequireTwoFactor(accountId: number, required: boolean, tx: Tx): Promise<boolean> {
    return this.accounts.setRequireTwoFactor(accountId, required, tx);
  }

  /** Operator CLI: a page of accounts in id order (`limit` + 1 read, so the caller knows whether more follow). */
  async listForOperator(filter: { nameContains?: string; afterId: number; limit: number }): Promise<{ accounts: AccountSummary[]; more: boolean }> {
    const rows = await this.accounts.listForOperator({ ...filter, limit: filter.limit + 1 });
    return { accounts: rows.slice(0, filter.limit), more: rows.length > filter.limit };
  }

  /** The auto-recharge and low-balance thresholds a debit checks (hundredths; null: off; undefined: unchanged). */
  async setBalanceThresholds(accountId: number, thresholds: { rechargeBelow?: number | null; warnBelow?: number | null }, tx: Tx): Promise<void> {
    await this.accounts.setBalanceThresholds(accountId, thresholds, tx);
  }

  /** Where tax invoices go; null: to the owner. */
  async setBillingEmail(accountId: number, email: string | null, tx?: Tx): Promise<void> {
    await this.accounts.setBillingEmail(accountId, email, tx);
  }
}
