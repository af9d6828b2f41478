import { Injectable } from '@nestjs/common';
import { uuid7 } from '../common/ids/uuid7';
import { AccountsService } from '../accounts/accounts.service';
import { mapInSlices } from '../common/concurrency/slices';
import { ErrorText, failure } from '../common/errors/error-catalogue';
import { SerializedJson, serializeInSlices } from '../common/http/serialized-json';
import { DEFAULT_MAX_PARTS } from '../common/sms';
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
import { NewMessage } from './messages.repository';
import type { SendRequester } from './send-requester';
import { SendWriter } from './send-writer.service';
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

/**
 * POST /v1/messages: checks each message on its own, personalises from contacts, prices by parts, then
 * debits the whole batch and stores every message in one transaction (one statement for the rows).
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
    const { account, composed, now } = await this.prepare(caller.accountId, command);
    const ignoreUnsubscribes = command.ignoreUnsubscribes ?? false;

    const rows: NewMessage[] = [];
    const links = new SendLinks(this.config.shortLinkBase);
    // In slices like compose(): ids, links and rows for 10000 entries are tens of milliseconds of one turn.
    const ids: Array<string | undefined> = await mapInSlices(composed, (entry, index) => {
      if (!entry.ok) return undefined;
      const id = uuid7();
      links.add(entry.links, id, rows.length, index);
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

    return this.writer.persist(
      {
        send: {
          accountId: caller.accountId,
          apiKeyId: caller.apiKeyId,
          kind: 'batch',
          ignoreUnsubscribes,
          shortenUrls: command.shortenUrls ?? false,
          messageCount: rows.length,
          totalCost,
          blockedCount: composed.filter((entry) => !entry.ok && entry.blocked).length,
          requestId: caller.requestId ?? null,
          userId: caller.userId ?? null,
          formKey: caller.formKey ?? null,
        },
        messages: rows,
        isTest: account.isTest,
        debitReason: 'send',
        links: links.batch(rows, composed),
      },
      {
        claim,
        failure: 'failedToProcessMessages',
        insufficientCredits: async () => failure('insufficientCredits'),
        respond: async (sendId) => answer(await toSendBatchResult(sendId, ignoreUnsubscribes, totalCost, composed, ids)),
      },
    );
  }

  /**
   * What a send of these entries would be, without storing or charging anything: each entry checked,
   * rendered, counted and priced, unsubscribed numbers blocked, by the rules `send` applies (the
   * dashboard's preview).
   */
  async preview(accountId: number, command: SendBatchCommand): Promise<{ composed: ComposedEntry[]; partRate: number }> {
    const { account, composed } = await this.prepare(accountId, command);
    return { composed, partRate: account.partRate };
  }

  private async prepare(accountId: number, command: SendBatchCommand) {
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
    const checked = await mapInSlices(command.messages, (entry) => checkEntry(entry, senders, now));
    // PostgreSQL looks up the unsubscribed numbers while node composes the texts (10000 numbers: about
    // 10 ms each). Every number that passed its checks is asked about; only sendable entries are blocked.
    const unsubscribed = command.ignoreUnsubscribes ? undefined : this.unsubscribedAmong(accountId, checked);
    // Awaited below; a failure while composing is still in progress must not count as unhandled.
    unsubscribed?.catch(() => undefined);
    const composed = await this.compose(accountId, checked, options);
    if (unsubscribed) blockUnsubscribed(composed, await unsubscribed);
    if (command.respectQuietHours) await this.keepQuietHours(accountId, composed, now);
    return { account, composed, now };
  }

  private unsubscribedAmong(accountId: number, checked: Array<CheckedEntry | ComposedEntry>): Promise<Set<string>> {
    const numbers = new Set<string>();
    for (const entry of checked) if (!('ok' in entry)) numbers.add(entry.to);
    return numbers.size ? this.unsubscribes.unsubscribedAmong(accountId, [...numbers]) : Promise.resolve(new Set());
  }

  private async compose(accountId: number, checked: Array<CheckedEntry | ComposedEntry>, options: SendOptions): Promise<ComposedEntry[]> {
    const templates = new TemplateCache();
    const needFields = new Set<string>();
    for (const entry of checked) if (!('ok' in entry) && templates.get(entry.template).hasPlaceholders) needFields.add(entry.to);
    const contacts = needFields.size ? await this.contacts.fieldsForNumbers(accountId, [...needFields]) : new Map();
    return mapInSlices(checked, (entry) => {
      if ('ok' in entry) return entry;
      const c = entry as CheckedEntry;
      return composeEntry(c, templates.get(c.template), { ...(contacts.get(c.to) ?? {}), number: c.to }, options);
    });
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

/** Sendable entries to unsubscribed numbers become blocked entries (status blocked, not charged). */
function blockUnsubscribed(composed: ComposedEntry[], unsubscribed: Set<string>): void {
  if (unsubscribed.size === 0) return;
  composed.forEach((entry, i) => {
    if (entry.ok && unsubscribed.has(entry.to)) {
      composed[i] = {
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
  });
}
