import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { CreditsService } from '../billing/credits.service';
import { hundredthsToNumber } from '../billing/money';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { MailTemplates } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import { operatorActor, type Actor } from '../users/actor';
import { AuditLogService } from '../users/audit-log.service';
import { UsersService } from '../users/users.service';
import { checkDeclineReason, checkLiveRequest, LiveRequestInput } from './live-request-input';
import type { LiveRequestState } from './live-request.entity';
import { LiveRequestRecord, LiveRequestsRepository, LiveRequestWithAccount } from './live-requests.repository';

/** Where the owner reads the request's state (the dashboard's Go live page). */
export const GO_LIVE_PATH = '/go-live';
const LIST_LIMIT = 1000;

/** What an operator's decision did: the request, whether the account went live, and whom it emailed. */
export interface LiveDecision {
  request: LiveRequestRecord;
  accountName: string;
  emailed: string | null;
}

/**
 * Going live: the owner of a test account asks (business name, ABN by its checksum, website, intended
 * use) on the Go live page; an operator approves or declines at the CLI. Approval makes the account live
 * in one transaction (same keys, the sandbox Sender ID gone, a free starting credit through the ledger
 * when one is set); the owner is emailed after the commit either way. Every step is in the audit log.
 */
@Injectable()
export class LiveRequestsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly requests: LiveRequestsRepository,
    private readonly accounts: AccountsService,
    private readonly credits: CreditsService,
    private readonly users: UsersService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The owner asks for a live account; refused for a live account or while a request waits. */
  async submit(actor: Actor, input: LiveRequestInput): Promise<LiveRequestRecord> {
    if (!actor.isOwner) throw failure('ownerOnly');
    const checked = checkLiveRequest(input);
    return this.uow.run(async (tx) => {
      const account = await this.accounts.get(actor.accountId, tx);
      if (!account.isTest) throw failure('accountAlreadyLive');
      const inserted = await this.requests.insertUnlessPending({ ...checked, accountId: actor.accountId, userId: actor.userId, submittedAt: this.clock.now() }, tx);
      if (!inserted) throw failure('liveRequestPending');
      await this.audit.record(actor, 'account.live_requested', `request ${inserted.id}: ${checked.businessName}, ABN ${checked.abn}`, tx);
      return inserted;
    });
  }

  /** The account's newest request (its state for the page), or null. */
  async latest(accountId: number): Promise<LiveRequestRecord | null> {
    return this.requests.latestOfAccount(accountId);
  }

  /** Operator: one request, with its account and owner. */
  async get(id: number): Promise<LiveRequestWithAccount> {
    const found = await this.requests.findWithAccount(id);
    if (!found) throw failure('liveRequestNotFound', id);
    return found;
  }

  /** Operator: requests in a state (pending: the review queue), oldest first. */
  async list(state?: LiveRequestState): Promise<LiveRequestWithAccount[]> {
    return this.requests.list(state, LIST_LIMIT);
  }

  /**
   * Operator: approves a pending request. `startingHundredths` overrides LIVE_STARTING_CREDITS (whole
   * credits); the grant is a ledger row in the same transaction, so ledger:verify stays clean.
   */
  async approve(id: number, startingHundredths?: number): Promise<LiveDecision> {
    const starting = startingHundredths ?? this.config.liveStartingCredits * 100;
    return this.uow.run(async (tx) => {
      const request = await this.decided(id, { state: 'approved', reason: null, startingCredits: starting, at: this.clock.now() }, tx);
      if (!(await this.accounts.makeLive(request.accountId, tx))) throw failure('accountIsLive', request.accountId);
      if (starting > 0) await this.credits.grant(request.accountId, starting, 'starting credit (went live)', `live-request:${id}`, tx);
      const credit = starting > 0 ? hundredthsToNumber(starting).toFixed(2) : null;
      await this.audit.record(operatorActor(request.accountId), 'account.live_approved', `request ${id}${credit ? `, starting credit ${credit}` : ''}`, tx);
      const account = await this.accounts.get(request.accountId, tx);
      const to = (await this.users.ownerOf(request.accountId))?.email ?? null;
      if (to) {
        const mail = MailTemplates.liveApproved(to, { accountName: account.name, requestId: id, startingCredits: credit, sendersLink: `${this.config.dashboardUrl}/senders` });
        tx.afterCommit(() => this.mail.send(mail));
      }
      return { request, accountName: account.name, emailed: to };
    });
  }

  /** Operator: declines a pending request with the reason the owner is told; the account stays a test account. */
  async decline(id: number, reason: string): Promise<LiveDecision> {
    const text = checkDeclineReason(reason);
    return this.uow.run(async (tx) => {
      const request = await this.decided(id, { state: 'declined', reason: text, startingCredits: null, at: this.clock.now() }, tx);
      await this.audit.record(operatorActor(request.accountId), 'account.live_declined', `request ${id}: ${text}`, tx);
      const account = await this.accounts.get(request.accountId, tx);
      const to = (await this.users.ownerOf(request.accountId))?.email ?? null;
      if (to) {
        const mail = MailTemplates.liveDeclined(to, { accountName: account.name, requestId: id, reason: text, goLiveLink: `${this.config.dashboardUrl}${GO_LIVE_PATH}` });
        tx.afterCommit(() => this.mail.send(mail));
      }
      return { request, accountName: account.name, emailed: to };
    });
  }

  private async decided(id: number, decision: Parameters<LiveRequestsRepository['decide']>[1], tx: Tx): Promise<LiveRequestRecord> {
    const request = await this.requests.decide(id, decision, tx);
    if (request) return request;
    const found = await this.requests.findById(id, tx);
    throw found ? failure('liveRequestAlreadyDecided', id, found.state) : failure('liveRequestNotFound', id);
  }
}
