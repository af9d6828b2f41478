import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import type { Account } from '../accounts/account.entity';
import { mapInSlices } from '../common/concurrency/slices';
import { ErrorText, failure } from '../common/errors/error-catalogue';
import { SerializedJson, serializeInSlices } from '../common/http/serialized-json';
import { ContactFields, DEFAULT_MAX_PARTS } from '../common/sms';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { ContactsService } from '../contacts/contacts.service';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import { SendersService } from '../senders/senders.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { LinkRewriter } from '../links/link-rewriter';
import { SendLinks } from './send-links';
import { CheckedEntry, checkEntry, ComposedEntry, composeEntry, SendOptions, TemplateCache } from './message-rules';
import { SendBatchResult, toSendBatchResult } from './messages.mapper';
import type { SendRequester } from './send-requester';
import { PricedSend, SendWriter } from './send-writer.service';
import { BatchRows } from './batch-rows';
import { QuietHoursService } from '../quiet-hours/quiet-hours.service';

export interface SendBatchCommand {
  /** Raw entries: each is validated on its own, so one bad entry fails only itself. */
  messages: unknown[];
  enableUnicode?: boolean;
  maxParts?: number;
  shortenUrls?: boolean;
  ignoreUnsubscribes?: boolean;
  /** Move messages that would go outside the account's quiet hours (when on) to the next allowed minute. */
  respectQuietHours?: boolean;
}

/** A batch's entries checked, with what composing each needs (SendBatchService.prepareEntries). */
interface PreparedEntries {
  account: Account;
  now: Date;
  /** Each entry checked, or its error result. */
  entries: Array<CheckedEntry | ComposedEntry>;
  /** The unsubscribed numbers among the checked entries' (none asked for with ignore_unsubscribes). */
  unsubscribed: Promise<Set<string>>;
  /** Entry i rendered, counted and priced (an entry that failed its checks stays as it is); not yet blocked. */
  composeAt: (index: number) => ComposedEntry;
  /** Some template holds {optout}, so some message may hold a link. */
  mayHaveLinks: boolean;
}

/**
 * POST /v1/messages: checks each message on its own, personalises from contacts, prices by parts, and
 * stores every message (one COPY for the rows) and debits the whole batch in one transaction.
 */
@Injectable()
export class SendBatchService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly senders: SendersService,
    private readonly contacts: ContactsService,
    private readonly unsubscribes: UnsubscribesService,
    private readonly writer: SendWriter,
    private readonly quietHours: QuietHoursService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async send(caller: SendRequester, command: SendBatchCommand, claim?: IdempotencyClaim): Promise<SendBatchResult> {
    return this.sendAnswering(caller, command, claim, (result) => result);
  }

  /**
   * send(), answered as its JSON text, serialized while PostgreSQL stores the rows (the API's POST: a
   * 10000-entry answer is about 3 MB of JSON, serialized once for the response and the Idempotency-Key).
   */
  async sendAsJson(caller: SendRequester, command: SendBatchCommand, claim?: IdempotencyClaim): Promise<SerializedJson> {
    return this.sendAnswering(caller, command, claim, (result) => serializeInSlices(result, 'results'));
  }

  private async sendAnswering<R>(
    caller: SendRequester,
    command: SendBatchCommand,
    claim: IdempotencyClaim | undefined,
    answer: (result: SendBatchResult) => R | Promise<R>,
  ): Promise<R> {
    const checked = await this.prepareEntries(caller.accountId, command);
    const { account, now } = checked;
    const ignoreUnsubscribes = command.ignoreUnsubscribes ?? false;
    const send = {
      accountId: caller.accountId,
      apiKeyId: caller.apiKeyId,
      kind: 'batch' as const,
      ignoreUnsubscribes,
      shortenUrls: command.shortenUrls ?? false,
      requestId: caller.requestId ?? null,
      userId: caller.userId ?? null,
      formKey: caller.formKey ?? null,
    };
    let batch: BatchRows;
    let priced: PricedSend;
    if (!command.shortenUrls && !command.respectQuietHours && !checked.mayHaveLinks) {
      // Nothing about a message needs a statement between composing it and storing it: the entries are
      // composed while PostgreSQL stores the slices before (10000 entries: tens of milliseconds off the answer).
      const unsubscribed = await checked.unsubscribed;
      batch = new BatchRows(checked.entries.length, (i) => blockIfUnsubscribed(checked.composeAt(i), unsubscribed), now);
      priced = { send, messages: batch, isTest: account.isTest, debitReason: 'send' };
    } else {
      // Links are stored before their messages, and quiet hours move messages by a statement of their own:
      // every message is made first.
      const composed = await this.composeAll(caller.accountId, checked, command);
      const links = new SendLinks(this.config.shortLinkBase);
      batch = new BatchRows(
        composed.length,
        (i) => composed[i],
        now,
        (entry, id, row, index) => links.add(entry.links, id, row, index),
      );
      const rows = await batch.all();
      priced = { send: { ...send, ...batch.totals() }, messages: rows, isTest: account.isTest, debitReason: 'send', links: links.batch(rows, batch.composed) };
    }
    return this.writer.persist(priced, {
      claim,
      failure: 'failedToProcessMessages',
      insufficientCredits: async () => failure('insufficientCredits'),
      respond: async (sendId) => answer(await toSendBatchResult(sendId, ignoreUnsubscribes, batch.totals().totalCost, batch.composed, batch.ids)),
    });
  }

  /**
   * What a send of these entries would be, without storing or charging anything: each entry checked,
   * rendered, counted and priced, unsubscribed numbers blocked, by the rules `send` applies (the
   * dashboard's preview).
   */
  async preview(accountId: number, command: SendBatchCommand): Promise<{ composed: ComposedEntry[]; partRate: number }> {
    const checked = await this.prepareEntries(accountId, command);
    return { composed: await this.composeAll(accountId, checked, command), partRate: checked.account.partRate };
  }

  /**
   * Each entry checked, the unsubscribed numbers among them asked for, and the contacts' fields their
   * templates need fetched: what composing an entry needs (`composeAt`).
   */
  private async prepareEntries(accountId: number, command: SendBatchCommand): Promise<PreparedEntries> {
    const [account, senders] = await Promise.all([this.accounts.get(accountId), this.senders.active(accountId)]);
    if (senders.size === 0) throw failure('noAllowedSenders');
    const now = this.clock.now();
    const options: SendOptions = {
      allowUnicode: command.enableUnicode ?? false,
      maxParts: command.maxParts ?? DEFAULT_MAX_PARTS,
      partRate: account.partRate,
      links: new LinkRewriter(this.config.shortLinkBase, command.shortenUrls ?? false),
      now,
    };
    const entries = await mapInSlices(command.messages, (entry) => checkEntry(entry, senders, now));
    // PostgreSQL looks up the unsubscribed numbers while node goes on (10000 numbers: about 10 ms each).
    // Every number that passed its checks is asked about; only sendable entries are blocked.
    const unsubscribed = command.ignoreUnsubscribes ? Promise.resolve(new Set<string>()) : this.unsubscribedAmong(accountId, entries);
    // Awaited by the caller; a failure while the contacts are read must not count as unhandled.
    unsubscribed.catch(() => undefined);
    const templates = new TemplateCache();
    const needFields = new Set<string>();
    let mayHaveLinks = false;
    for (const entry of entries) {
      if ('ok' in entry) continue;
      const template = templates.get(entry.template);
      if (template.hasPlaceholders) needFields.add(entry.to);
      if (template.hasOptout) mayHaveLinks = true;
    }
    const contacts = needFields.size ? await this.contacts.fieldsForNumbers(accountId, [...needFields]) : new Map<string, ContactFields>();
    const composeAt = (i: number): ComposedEntry => {
      const entry = entries[i];
      if ('ok' in entry) return entry;
      return composeEntry(entry, templates.get(entry.template), { ...(contacts.get(entry.to) ?? {}), number: entry.to }, options);
    };
    return { account, now, entries, unsubscribed, composeAt, mayHaveLinks };
  }

  /** Every entry composed (in slices), unsubscribed numbers blocked, quiet hours kept when asked. */
  private async composeAll(accountId: number, checked: PreparedEntries, command: SendBatchCommand): Promise<ComposedEntry[]> {
    const composed = await mapInSlices(checked.entries, (_, i) => checked.composeAt(i));
    const unsubscribed = await checked.unsubscribed;
    composed.forEach((entry, i) => (composed[i] = blockIfUnsubscribed(entry, unsubscribed)));
    if (command.respectQuietHours) await this.keepQuietHours(accountId, composed, checked.now);
    return composed;
  }

  private unsubscribedAmong(accountId: number, checked: Array<CheckedEntry | ComposedEntry>): Promise<Set<string>> {
    const numbers = new Set<string>();
    for (const entry of checked) if (!('ok' in entry)) numbers.add(entry.to);
    return numbers.size ? this.unsubscribes.unsubscribedAmong(accountId, [...numbers]) : Promise.resolve(new Set());
  }

  /**
   * `respect_quiet_hours` (an extension): a message that would go outside the account's quiet hours, in
   * its recipient's zone, is scheduled for the next allowed minute instead (one statement for the batch).
   */
  private async keepQuietHours(accountId: number, composed: ComposedEntry[], now: Date): Promise<void> {
    const okAt = composed.flatMap((entry, i) => (entry.ok ? [i] : []));
    if (okAt.length === 0) return;
    const fields = await this.contacts.fieldsForNumbers(accountId, [...new Set(okAt.map((i) => composed[i].to))]);
    const planned = okAt.map((i) => ({ at: composed[i].scheduledAt ?? now, fields: fields.get(composed[i].to) }));
    const allowed = await this.quietHours.schedule(accountId, planned);
    if (!allowed) return;
    okAt.forEach((i, k) => {
      if (allowed[k].getTime() > planned[k].at.getTime()) composed[i] = { ...composed[i], scheduledAt: allowed[k] };
    });
  }
}

/** A sendable entry to an unsubscribed number becomes a blocked entry (status blocked, not charged). */
function blockIfUnsubscribed(entry: ComposedEntry, unsubscribed: Set<string>): ComposedEntry {
  if (!entry.ok || !unsubscribed.has(entry.to)) return entry;
  return {
    ok: false,
    to: entry.to,
    text: entry.text,
    sender: entry.sender,
    customRef: entry.customRef,
    scheduledAt: null,
    error: ErrorText.recipientUnsubscribed,
    blocked: true,
  };
}
