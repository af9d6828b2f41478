import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { CreditsService } from '../billing/credits.service';
import { hundredthsToNumber } from '../billing/money';
import type { Caller } from '../common/auth/authenticated-request';
import { DomainError } from '../common/errors/domain-error';
import { classifyDependencyFailure } from '../common/errors/dependency-errors';
import { failure, failureBecause } from '../common/errors/error-catalogue';
import { analyseMessage, compileTemplate, DEFAULT_MAX_PARTS, optoutText } from '../common/sms';
import { Clock } from '../common/time/clock';
import { formatUtc } from '../common/time/format';
import { parseScheduledFor, staggerOffsetsMs } from '../common/time/schedule';
import { AppConfig } from '../config/app-config';
import { DispatchQueue } from '../queues/dispatch-queue';
import type { ContactRecord } from '../contacts/contact-fields';
import { ListsService } from '../lists/lists.service';
import { SendersService } from '../senders/senders.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { MessagesRepository, NewMessage } from './messages.repository';
import { SendsRepository } from './sends.repository';
import { UnitOfWork } from '../database/unit-of-work';

export interface ListSendRequest {
  list_id: number;
  sender: string;
  message: string;
  custom_ref?: string;
  scheduled_for?: string;
  stagger_minutes?: number;
  max_parts?: number;
  ignore_unsubscribes?: boolean;
}

/** Keeps one contact per number: the most recently updated supplies the fields (supplement, Placeholders). */
function dedupeByNumber<T extends ContactRecord & { updated_at: Date }>(members: T[]): T[] {
  const byNumber = new Map<string, T>();
  for (const m of members) {
    const seen = byNumber.get(m.number);
    if (!seen || m.updated_at > seen.updated_at || (m.updated_at.getTime() === seen.updated_at.getTime() && m.id > seen.id)) byNumber.set(m.number, m);
  }
  return members.filter((m) => byNumber.get(m.number) === m);
}

/**
 * POST /v1/list-send: one message per list member, personalised from the member's own fields, after
 * removing unsubscribed numbers, duplicate numbers and texts over the part cap; optionally scheduled
 * and staggered. Pricing, the debit and the inserts are one transaction, as for a batch.
 */
@Injectable()
export class ListSendService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly senders: SendersService,
    private readonly lists: ListsService,
    private readonly unsubscribes: UnsubscribesService,
    private readonly credits: CreditsService,
    private readonly messages: MessagesRepository,
    private readonly sends: SendsRepository,
    private readonly dispatch: DispatchQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async send(caller: Caller, request: ListSendRequest) {
    const now = this.clock.now();
    const schedule = parseScheduledFor(request.scheduled_for, now);
    if (!schedule.ok) throw failure('invalidScheduledFor');
    const senderType = (await this.senders.activeTypes(caller.accountId)).get(request.sender);
    if (!senderType) throw failure('invalidSender');
    const account = await this.accounts.get(caller.accountId);

    let members = await this.lists.membersForSend(caller.accountId, request.list_id);
    if (members.length === 0) throw failure('listEmpty');
    if (!account.allowDuplicateContacts) members = dedupeByNumber(members);
    let blocked = 0;
    if (!request.ignore_unsubscribes) {
      const unsubscribed = await this.unsubscribes.unsubscribedAmong(caller.accountId, [...new Set(members.map((m) => m.number))]);
      const kept = members.filter((m) => !unsubscribed.has(m.number));
      blocked = members.length - kept.length;
      members = kept;
      if (members.length === 0) throw failure('noRecipientsAfterUnsubscribes');
    }

    const template = compileTemplate(request.message);
    const optout = optoutText(senderType, `${this.config.shortLinkBase}/o/${account.optoutCode}`);
    const maxParts = request.max_parts ?? DEFAULT_MAX_PARTS;
    let tooLong = 0;
    const rendered: Array<{ to: string; text: string; encoding: 'gsm7' | 'ucs2'; parts: number }> = [];
    for (const member of members) {
      const text = template.render(member, optout);
      // list-send has no enable_unicode: a text that needs UCS-2 is sent as UCS-2 (supplement, Encoding).
      const analysis = analyseMessage(text, true);
      if ('error' in analysis || analysis.parts > maxParts) {
        tooLong++;
        continue;
      }
      rendered.push({ to: member.number, text, encoding: analysis.encoding, parts: analysis.parts });
    }
    if (rendered.length === 0) throw failure('noRecipientsAfterFiltering');

    const start = schedule.at ?? now;
    const offsets = request.stagger_minutes ? staggerOffsetsMs(rendered.length, request.stagger_minutes) : null;
    const rows: NewMessage[] = rendered.map((r, i) => {
      const dispatchAt = new Date(start.getTime() + (offsets ? offsets[i] : 0));
      const scheduled = dispatchAt.getTime() > now.getTime();
      return {
        id: randomUUID(),
        to: r.to,
        sender: request.sender,
        senderType,
        body: r.text,
        customRef: request.custom_ref ?? null,
        status: scheduled ? 'scheduled' : 'pending',
        encoding: r.encoding,
        parts: r.parts,
        cost: r.parts * account.partRate,
        scheduledFor: scheduled ? dispatchAt : null,
        dispatchAt,
      };
    });
    const totalCost = rows.reduce((sum, r) => sum + r.cost, 0);

    try {
      const sendId = await this.uow.run(async (m) => {
        const id = await this.sends.insert(
          {
            accountId: caller.accountId,
            apiKeyId: caller.apiKeyId,
            kind: 'list',
            listId: request.list_id,
            ignoreUnsubscribes: request.ignore_unsubscribes ?? false,
            customRef: request.custom_ref ?? null,
            scheduledFor: schedule.at,
            staggerMinutes: request.stagger_minutes ?? null,
            messageCount: rows.length,
            totalCost,
          },
          m,
        );
        if (!account.isTest && (await this.credits.debit(caller.accountId, totalCost, 'list send', `send:${id}`, m)) === null) {
          const { creditBalance } = await this.accounts.get(caller.accountId);
          throw failure('insufficientCreditsFor', String(hundredthsToNumber(totalCost)), String(hundredthsToNumber(creditBalance)));
        }
        await this.messages.insertMany(caller.accountId, id, account.isTest, rows, m);
        return id;
      });
      // After commit; if this is lost, the sweeper finds the due messages in PostgreSQL.
      void this.dispatch.sendCommitted(sendId, rows.map((r) => r.dispatchAt));
      return {
        status: 'complete' as const,
        send_id: sendId,
        list_id: request.list_id,
        total_recipients: rows.length,
        total_blocked_unsubscribed: blocked,
        total_skipped_too_long: tooLong,
        total_cost: hundredthsToNumber(totalCost),
        scheduled_for: schedule.at ? formatUtc(schedule.at) : null,
        stagger_minutes: request.stagger_minutes ?? null,
        send_status: schedule.at ? ('scheduled' as const) : ('queued' as const),
      };
    } catch (err) {
      if (err instanceof DomainError || classifyDependencyFailure(err)) throw err;
      throw failureBecause(err, 'failedToSendToList');
    }
  }
}
