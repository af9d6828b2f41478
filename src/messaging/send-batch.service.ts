import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { CreditsService } from '../billing/credits.service';
import { hundredthsToNumber } from '../billing/money';
import type { Caller } from '../common/auth/authenticated-request';
import { DomainError } from '../common/errors/domain-error';
import { classifyDependencyFailure } from '../common/errors/dependency-errors';
import { ErrorText, failure, failureBecause } from '../common/errors/error-catalogue';
import { DEFAULT_MAX_PARTS, SenderType } from '../common/sms';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { DispatchQueue } from '../queues/dispatch-queue';
import { ContactsService } from '../contacts/contacts.service';
import { IdempotencyClaim, IdempotencyKeyTaken, IdempotencyService } from '../idempotency/idempotency.service';
import { SendersService } from '../senders/senders.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { CheckedEntry, checkEntry, ComposedEntry, composeEntry, SendOptions, TemplateCache } from './message-rules';
import { SendResultEntry, toSendResultEntry } from './messages.mapper';
import { MessagesRepository, NewMessage } from './messages.repository';
import { SendsRepository } from './sends.repository';
import { UnitOfWork } from '../database/unit-of-work';

export interface SendBatchRequest {
  messages: unknown[];
  enable_unicode?: boolean;
  max_parts?: number;
  shorten_urls?: boolean;
  ignore_unsubscribes?: boolean;
}

export interface SendBatchResult {
  status: 'complete';
  send_id: number;
  ignore_unsubscribes: boolean;
  total_cost: number;
  results: SendResultEntry[];
}

/**
 * POST /v1/messages: checks each message on its own, personalises from contacts, prices by parts, then
 * debits the whole batch and stores every message in one transaction (one statement for the rows).
 */
@Injectable()
export class SendBatchService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly senders: SendersService,
    private readonly contacts: ContactsService,
    private readonly unsubscribes: UnsubscribesService,
    private readonly credits: CreditsService,
    private readonly messages: MessagesRepository,
    private readonly sends: SendsRepository,
    private readonly idempotency: IdempotencyService,
    private readonly dispatch: DispatchQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async send(caller: Caller, request: SendBatchRequest, claim?: IdempotencyClaim): Promise<SendBatchResult> {
    const account = await this.accounts.get(caller.accountId);
    const senders = await this.senders.activeTypes(caller.accountId);
    if (senders.size === 0) throw failure('noAllowedSenders');
    const now = this.clock.now();
    const options: SendOptions = {
      allowUnicode: request.enable_unicode ?? false,
      maxParts: request.max_parts ?? DEFAULT_MAX_PARTS,
      partRate: account.partRate,
      optoutLink: `${this.config.shortLinkBase}/o/${account.optoutCode}`,
      now,
    };
    const ignoreUnsubscribes = request.ignore_unsubscribes ?? false;
    const composed = await this.compose(caller.accountId, request.messages, senders, options);
    if (!ignoreUnsubscribes) await this.blockUnsubscribed(caller.accountId, composed);

    const rows: NewMessage[] = [];
    const ids: Array<string | undefined> = composed.map((entry) => {
      if (!entry.ok) return undefined;
      const id = randomUUID();
      rows.push({
        id,
        to: entry.to,
        sender: entry.sender,
        senderType: entry.senderType,
        body: entry.text,
        customRef: entry.customRef ?? null,
        status: entry.scheduledAt ? 'scheduled' : 'pending',
        encoding: entry.encoding,
        parts: entry.parts,
        cost: entry.cost,
        scheduledFor: entry.scheduledAt,
        dispatchAt: entry.scheduledAt ?? now,
      });
      return id;
    });
    const totalCost = rows.reduce((sum, r) => sum + r.cost, 0);

    let result: SendBatchResult;
    try {
      result = await this.uow.run(async (m) => {
        if (claim) await this.idempotency.claim(claim, m);
        const sendId = await this.sends.insert(
          { accountId: caller.accountId, apiKeyId: caller.apiKeyId, kind: 'batch', ignoreUnsubscribes, shortenUrls: request.shorten_urls ?? false, messageCount: rows.length, totalCost },
          m,
        );
        // Test accounts are priced but never charged (supplement: Test accounts).
        if (!account.isTest && totalCost > 0 && (await this.credits.debit(caller.accountId, totalCost, 'send', `send:${sendId}`, m)) === null) {
          throw failure('insufficientCredits');
        }
        await this.messages.insertMany(caller.accountId, sendId, account.isTest, rows, m);
        const response: SendBatchResult = {
          status: 'complete',
          send_id: sendId,
          ignore_unsubscribes: ignoreUnsubscribes,
          total_cost: hundredthsToNumber(totalCost),
          results: composed.map((entry, i) => toSendResultEntry(entry, ids[i])),
        };
        if (claim) await this.idempotency.complete(claim, m, 200, JSON.stringify(response));
        return response;
      });
    } catch (err) {
      if (err instanceof DomainError || err instanceof IdempotencyKeyTaken || classifyDependencyFailure(err)) throw err;
      throw failureBecause(err, 'failedToProcessMessages');
    }
    // After commit; if this is lost, the sweeper finds the due messages in PostgreSQL.
    if (rows.length) void this.dispatch.sendCommitted(result.send_id, rows.map((r) => r.dispatchAt));
    return result;
  }

  private async compose(accountId: number, raw: unknown[], senders: ReadonlyMap<string, SenderType>, options: SendOptions): Promise<ComposedEntry[]> {
    const templates = new TemplateCache();
    const checked = raw.map((entry) => checkEntry(entry, senders, options.now));
    const needFields = new Set<string>();
    for (const entry of checked) if (!('ok' in entry) && templates.get(entry.template).hasPlaceholders) needFields.add(entry.to);
    const contacts = needFields.size ? await this.contacts.fieldsForNumbers(accountId, [...needFields]) : new Map();
    return checked.map((entry) => {
      if ('ok' in entry) return entry;
      const c = entry as CheckedEntry;
      return composeEntry(c, templates.get(c.template), { ...(contacts.get(c.to) ?? {}), number: c.to }, options);
    });
  }

  private async blockUnsubscribed(accountId: number, composed: ComposedEntry[]): Promise<void> {
    const numbers = [...new Set(composed.filter((e) => e.ok).map((e) => e.to))];
    const unsubscribed = await this.unsubscribes.unsubscribedAmong(accountId, numbers);
    if (unsubscribed.size === 0) return;
    composed.forEach((entry, i) => {
      if (entry.ok && unsubscribed.has(entry.to)) {
        composed[i] = { ok: false, to: entry.to, text: entry.text, sender: entry.sender, customRef: entry.customRef, scheduledAt: null, error: ErrorText.recipientUnsubscribed, blocked: true };
      }
    });
  }
}
