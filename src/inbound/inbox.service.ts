import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { normaliseAuMobile } from '../common/phone';
import { SendBatchService } from '../messaging/send-batch.service';
import type { SendRequester } from '../messaging/send-requester';
import { SendersService } from '../senders/senders.service';
import { InboxRepository, InboxThreadRow, ThreadEntryRow } from './inbox.repository';

/** Entries a thread shows (the newest). */
export const THREAD_ENTRIES = 200;

const PHONE_LIKE = /^[\d\s()+.-]+$/;

/**
 * The inbox: the account's two-way conversations, one thread per mobile that has written to it, with
 * what the account sent that mobile beside the replies. Opening a thread marks it read for the account;
 * a reply is a send like any other (SendBatchService: priced, charged, opt-outs honoured), from the
 * account's number the mobile wrote to last.
 */
@Injectable()
export class InboxService {
  constructor(
    private readonly inbox: InboxRepository,
    private readonly senders: SendersService,
    private readonly batch: SendBatchService,
  ) {}

  async threads(accountId: number, rawSearch: string, limit: number, offset: number): Promise<InboxThreadRow[]> {
    const typed = rawSearch.trim().slice(0, 100);
    let search: { text: string; digits: string | null } | null = null;
    if (typed !== '') {
      const digits = PHONE_LIKE.test(typed) ? typed.replace(/\D/g, '') : '';
      search = { text: typed, digits: digits.length >= 3 ? digits : null };
    }
    return this.inbox.threads(accountId, search, limit, offset);
  }

  unreadThreads(accountId: number): Promise<number> {
    return this.inbox.unreadThreads(accountId);
  }

  /** A thread, newest first, marked read up to its latest reply; 404 for a mobile that never wrote to the account. */
  async open(accountId: number, rawMobile: string): Promise<{ mobile: string; replyFrom: string; entries: ThreadEntryRow[] }> {
    const { mobile, last } = await this.requireThread(accountId, rawMobile);
    const [received, active] = await Promise.all([this.inbox.receivingNumbers(accountId, mobile), this.senders.active(accountId)]);
    const entries = await this.inbox.thread(accountId, mobile, [...new Set([...received, ...active.values()])], THREAD_ENTRIES);
    await this.inbox.markRead(accountId, mobile, last.seq);
    return { mobile, replyFrom: last.number, entries };
  }

  /** Sends a reply in the thread; a refused message (no credits, opted out, empty) is the error its send gave. */
  async reply(requester: SendRequester, rawMobile: string, message: string): Promise<{ mobile: string; sendId: number }> {
    const { mobile, last } = await this.requireThread(requester.accountId, rawMobile);
    const result = await this.batch.send(requester, { messages: [{ to: mobile, message, sender: last.number }], enableUnicode: true });
    const entry = result.results[0];
    if (entry.status !== 'success') throw failure('invalidField', entry.error ?? 'The reply could not be sent');
    return { mobile, sendId: result.send_id };
  }

  private async requireThread(accountId: number, rawMobile: string) {
    const mobile = normaliseAuMobile(rawMobile);
    const last = mobile ? await this.inbox.lastReceivingNumber(accountId, mobile) : null;
    if (!mobile || !last) throw failure('conversationNotFound');
    return { mobile, last };
  }
}
