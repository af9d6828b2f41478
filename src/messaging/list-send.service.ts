import { Injectable } from '@nestjs/common';
import { uuid7 } from '../common/ids/uuid7';
import { AccountsService } from '../accounts/accounts.service';
import { hundredthsToNumber } from '../billing/money';
import { failure } from '../common/errors/error-catalogue';
import { analyseMessage, compileTemplate, DEFAULT_MAX_PARTS, SmsEncoding } from '../common/sms';
import { Clock } from '../common/time/clock';
import { parseScheduledFor, staggerOffsetsMs } from '../common/time/schedule';
import { AppConfig } from '../config/app-config';
import type { ContactRecord } from '../contacts/contact-fields';
import { LinkRewriter, OPTOUT_MARK, PendingLink } from '../links/link-rewriter';
import { ListsService } from '../lists/lists.service';
import { SendersService } from '../senders/senders.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { ListSendResult, toListSendResult } from './messages.mapper';
import { NewMessage } from './messages.repository';
import { SendLinks } from './send-links';
import type { SendRequester } from './send-requester';
import { SendWriter } from './send-writer.service';
import { QuietHoursService } from '../quiet-hours/quiet-hours.service';

export interface ListSendCommand {
  listId: number;
  sender: string;
  message: string;
  customRef?: string;
  scheduledFor?: string;
  staggerMinutes?: number;
  maxParts?: number;
  ignoreUnsubscribes?: boolean;
  shortenUrls?: boolean;
}

export interface ListSendCounts {
  recipients: number;
  blockedUnsubscribed: number;
  skippedTooLong: number;
  /** Hundredths of a credit. */
  totalCost: number;
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
    private readonly accounts: AccountsService,
    private readonly senders: SendersService,
    private readonly lists: ListsService,
    private readonly unsubscribes: UnsubscribesService,
    private readonly writer: SendWriter,
    private readonly quietHours: QuietHoursService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async send(caller: SendRequester, command: ListSendCommand): Promise<ListSendResult> {
    return (await this.sendTelling(caller, command)).result;
  }

  /** The same send, also telling whether quiet hours held it (the dashboard says so; the API's answer does not). */
  async sendTelling(caller: SendRequester, command: ListSendCommand): Promise<{ result: ListSendResult; heldUntil: Date | null }> {
    const { account, schedule, rows, links, counts, heldUntil } = await this.prepare(caller.accountId, command);
    const totalCost = counts.totalCost;
    const send = {
      accountId: caller.accountId,
      apiKeyId: caller.apiKeyId,
      kind: 'list' as const,
      listId: command.listId,
      ignoreUnsubscribes: command.ignoreUnsubscribes ?? false,
      shortenUrls: command.shortenUrls ?? false,
      customRef: command.customRef ?? null,
      scheduledFor: schedule.at,
      staggerMinutes: command.staggerMinutes ?? null,
      messageCount: rows.length,
      totalCost,
      blockedCount: counts.blockedUnsubscribed,
      requestId: caller.requestId ?? null,
      userId: caller.userId ?? null,
      formKey: caller.formKey ?? null,
    };
    const result = await this.writer.persist(
      { send, messages: rows, isTest: account.isTest, debitReason: 'list send', links: links.batch(rows) },
      {
        failure: 'failedToSendToList',
        insufficientCredits: async (tx) => {
          const { creditBalance } = await this.accounts.get(caller.accountId, tx);
          return failure('insufficientCreditsFor', String(hundredthsToNumber(totalCost)), String(hundredthsToNumber(creditBalance)));
        },
        respond: (sendId) => toListSendResult(sendId, command.listId, counts, schedule.at, command.staggerMinutes ?? null),
      },
    );
    return { result, heldUntil };
  }

  /**
   * What a send to the list would be, storing and charging nothing: the same filters, rendering and
   * prices as `send` (the dashboard's preview); the first message stands for the rest.
   */
  async preview(accountId: number, command: ListSendCommand): Promise<{ counts: ListSendCounts; first: NewMessage; totalParts: number; heldUntil: Date | null }> {
    const { rows, counts, heldUntil } = await this.prepare(accountId, command);
    return { counts, first: rows[0], totalParts: rows.reduce((sum, r) => sum + r.parts, 0), heldUntil };
  }

  private async prepare(accountId: number, command: ListSendCommand) {
    const now = this.clock.now();
    const schedule = parseScheduledFor(command.scheduledFor, now);
    if (!schedule.ok) throw failure('invalidScheduledFor');
    const sender = (await this.senders.active(accountId)).match(command.sender);
    if (!sender) throw failure('invalidSender');
    const senderType = sender.type;
    const account = await this.accounts.get(accountId);

    let members = await this.lists.membersForSend(accountId, command.listId);
    if (members.length === 0) throw failure('listEmpty');
    if (!account.allowDuplicateContacts) members = dedupeByNumber(members);
    let blocked = 0;
    if (!command.ignoreUnsubscribes) {
      const unsubscribed = await this.unsubscribes.unsubscribedAmong(accountId, [...new Set(members.map((m) => m.number))]);
      const kept = members.filter((m) => !unsubscribed.has(m.number));
      blocked = members.length - kept.length;
      members = kept;
      if (members.length === 0) throw failure('noRecipientsAfterUnsubscribes');
    }

    const template = compileTemplate(command.message);
    const linkRewriter = new LinkRewriter(this.config.shortLinkBase, command.shortenUrls ?? false);
    const maxParts = command.maxParts ?? DEFAULT_MAX_PARTS;
    let tooLong = 0;
    const rendered: Array<{ to: string; text: string; encoding: SmsEncoding; parts: number; links: PendingLink[]; fields: ContactRecord }> = [];
    for (const member of members) {
      const { text, links } = linkRewriter.finish(template.render(member, OPTOUT_MARK), senderType);
      // list-send has no enable_unicode: a text that needs UCS-2 is sent as UCS-2 (supplement, Encoding).
      const analysis = analyseMessage(text, true);
      if ('error' in analysis || analysis.parts > maxParts) {
        tooLong++;
        continue;
      }
      rendered.push({ to: member.number, text, encoding: analysis.encoding, parts: analysis.parts, links, fields: member });
    }
    if (rendered.length === 0) throw failure('noRecipientsAfterFiltering');

    const start = schedule.at ?? now;
    const offsets = command.staggerMinutes ? staggerOffsetsMs(rendered.length, command.staggerMinutes) : null;
    const planned = rendered.map((r, i) => new Date(start.getTime() + (offsets ? offsets[i] : 0)));
    // Quiet hours, when the account has them on: each message moves to the next allowed minute in its recipient's zone.
    const allowed =
      (await this.quietHours.schedule(
        accountId,
        rendered.map((r, i) => ({ at: planned[i], fields: r.fields })),
      )) ?? planned;
    const links = new SendLinks(this.config.shortLinkBase);
    const rows = rendered.map((r, i): NewMessage => {
      const dispatchAt = allowed[i];
      const scheduled = dispatchAt.getTime() > now.getTime();
      const id = uuid7();
      links.add(r.links, id, i);
      return {
        id,
        to: r.to,
        sender: sender.value,
        senderType,
        body: r.text,
        customRef: command.customRef ?? null,
        status: scheduled ? 'scheduled' : 'pending',
        encoding: r.encoding,
        parts: r.parts,
        cost: r.parts * account.partRate,
        scheduledFor: scheduled ? dispatchAt : null,
        dispatchAt,
      };
    });
    const totalCost = rows.reduce((sum, r) => sum + r.cost, 0);
    const counts: ListSendCounts = { recipients: rows.length, blockedUnsubscribed: blocked, skippedTooLong: tooLong, totalCost };
    // The earliest a message moved by quiet hours now goes; null when none moved.
    let heldUntil: Date | null = null;
    for (let i = 0; i < allowed.length; i++) {
      if (allowed[i].getTime() > planned[i].getTime() && (heldUntil === null || allowed[i] < heldUntil)) heldUntil = allowed[i];
    }
    return { account, schedule, rows, links, counts, heldUntil };
  }
}
