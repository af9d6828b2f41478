import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import type { ConsentRow } from '../../consent/consent.repository';
import { ConsentService } from '../../consent/consent.service';
import { InboxService } from '../../inbound/inbox.service';
import { SendAlreadySubmitted } from '../../messaging/send-requester';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

/** Threads a page lists at once. */
const THREADS_PER_PAGE = 50;
/** The longest reply the form takes (the API's own part limits apply after this). */
const REPLY_MAX_LENGTH = 1600;

const threadPath = (mobile: string) => `${PAGES.inbox.path}/${mobile}`;

/** How a thread names what came in: a reply's text, or what an opt-out did. */
function entryText(entry: { type: string; body: string }): { text: string; event: string | null } {
  if (entry.type !== 'unsubscribe') return { text: entry.body, event: null };
  return { text: entry.body, event: entry.body === '' ? 'Opted out through the opt-out link' : 'Opted out by replying STOP' };
}

/** Consent records a thread shows at most (a number's whole history, in practice). */
const CONSENT_RECORDS_SHOWN = 100;

const CONSENT_HOW: Record<string, string> = {
  reply: 'Reply',
  start: 'START reply',
  keyword: 'Keyword reply',
  link: 'Opt-out link',
  api: 'API',
  dashboard: 'Dashboard',
  import: 'Import',
};

/** One consent record as the thread shows it: the change, how, and its evidence in words. */
function consentEntry(r: ConsentRow, timeZone: string) {
  const evidence = [
    r.detail === null ? null : r.source === 'api' && r.detail === 'dashboard' ? 'on the dashboard' : `“${r.detail}”`,
    r.inbound_message_id === null ? null : `reply ${r.inbound_message_id}`,
    r.message_id === null ? null : `link in message ${r.message_id}`,
    r.client_address === null ? null : `from ${r.client_address}`,
    r.api_key_id === null ? null : `API key ${r.api_key_id}`,
    r.user_id === null ? null : `user ${r.user_id}`,
  ].filter((e): e is string => e !== null);
  return {
    change: r.change === 'opt_out' ? 'Opted out' : 'Opted in',
    optOut: r.change === 'opt_out',
    how: CONSENT_HOW[r.source] ?? r.source,
    evidence: evidence.join(', '),
    at: show.time(r.recorded_at, timeZone),
  };
}

/** The inbox (`read_inbox`): threads newest first with unread counts and search, a thread, and a reply from it. */
@Injectable()
export class InboxPageService {
  constructor(
    private readonly inbox: InboxService,
    private readonly consent: ConsentService,
  ) {}

  async list(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    const search = typeof query.q === 'string' ? query.q.trim().slice(0, 100) : '';
    const offset = typeof query.offset === 'string' && /^\d{1,9}$/.test(query.offset) ? Number(query.offset) : 0;
    const rows = await this.inbox.threads(user.accountId, search, THREADS_PER_PAGE + 1, offset);
    const link = (o: number) => `${PAGES.inbox.path}?${new URLSearchParams({ ...(search ? { q: search } : {}), offset: String(o) }).toString()}`;
    return view('dashboard/views/inbox', {
      title: 'Inbox',
      search,
      threads: rows.slice(0, THREADS_PER_PAGE).map((t) => ({
        mobile: t.mobile,
        href: threadPath(t.mobile),
        unread: t.unread,
        received: t.received,
        last: t.last_type === 'unsubscribe' ? entryText({ type: t.last_type, body: t.last_body }).event : t.last_body,
        lastAt: show.time(t.last_at, user.timeZone),
      })),
      previous: offset > 0 ? link(Math.max(0, offset - THREADS_PER_PAGE)) : undefined,
      next: rows.length > THREADS_PER_PAGE ? link(offset + THREADS_PER_PAGE) : undefined,
    });
  }

  async thread(user: DashboardUser, mobile: string, query: Record<string, unknown>, error?: FormError, typed?: string): Promise<PageResult> {
    const thread = await this.inbox.open(user.accountId, mobile);
    const consent = await this.consent.forNumber(user.accountId, thread.mobile, CONSENT_RECORDS_SHOWN);
    return view(
      'dashboard/views/inbox-thread',
      {
        title: `Conversation with ${thread.mobile}`,
        notice: noticeFor(query.notice),
        ...errorModel(error),
        mobile: thread.mobile,
        replyFrom: thread.replyFrom,
        message: typed ?? '',
        maxLength: REPLY_MAX_LENGTH,
        formKey: randomUUID(),
        entries: thread.entries.map((e) => ({
          incoming: e.direction === 'in',
          ...entryText(e),
          number: e.account_number,
          at: show.time(e.at, user.timeZone),
        })),
        consent: consent.map((r) => consentEntry(r, user.timeZone)),
      },
      error?.status ?? 200,
    );
  }

  async reply(user: DashboardUser, mobile: string, form: FormBody | undefined): Promise<PageResult> {
    const message = formText(form, 'message');
    const formKey = formText(form, 'form_key');
    // Every rendered reply form carries its key; one without is not our form.
    if (!/^[0-9a-f-]{36}$/.test(formKey)) throw failure('csrfTokenInvalid');
    return withFormErrors<PageResult>(
      async () => {
        if (message === '') throw failure('pageMessageRequired');
        if (message.length > REPLY_MAX_LENGTH) throw failure('invalidField', `The reply must be at most ${REPLY_MAX_LENGTH} characters`);
        try {
          const sent = await this.inbox.reply({ accountId: user.accountId, apiKeyId: null, userId: user.userId, formKey }, mobile, message);
          return redirectTo(withNotice(threadPath(sent.mobile), 'reply_sent'));
        } catch (err) {
          // The same form sent twice: the first one's reply stands, nothing is sent or charged again.
          if (err instanceof SendAlreadySubmitted) return redirectTo(withNotice(threadPath(mobile), 'reply_sent'));
          throw err;
        }
      },
      (error) => this.thread(user, mobile, {}, error, message),
    );
  }
}
