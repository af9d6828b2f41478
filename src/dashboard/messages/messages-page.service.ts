import { Injectable } from '@nestjs/common';
import { MessageActivityService } from '../../messaging/message-activity.service';
import { MessageLookupService } from '../../messaging/message-lookup.service';
import { MESSAGE_STATUSES } from '../../messaging/message.entity';
import type { MessageRow } from '../../messaging/messages.repository';
import { failure } from '../../common/errors/error-catalogue';
import { isUuid } from '../../common/validation/uuid';
import { parseLocalDayRange } from '../../common/time/local-time';
import { errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { pager, show, zoneLabel } from '../format';

/** Rows a page of history shows (the API's filters and paging, a page size for people). */
export const MESSAGES_PER_PAGE = 50;
const FILTERS = ['status', 'from', 'to', 'custom_ref', 'message_id'] as const;

@Injectable()
export class MessagesPageService {
  constructor(
    private readonly lookup: MessageLookupService,
    private readonly activity: MessageActivityService,
  ) {}

  /** The history with the API's filters (status, days read in the account's zone, custom_ref, message_id) and paging, through the API's own service. */
  async list(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    const filters = Object.fromEntries(FILTERS.map((name) => [name, queryText(query[name])])) as Record<(typeof FILTERS)[number], string>;
    const offset = queryText(query.offset) || '0';
    const base = { title: 'Messages', filters, statuses: MESSAGE_STATUSES, zone: zoneLabel(user.timeZone) };
    const toRow = (r: MessageRow) => ({
      id: r.id,
      to: r.to_number,
      sender: r.sender,
      message: r.body,
      status: r.status,
      cost: show.credits(Number(r.cost)),
      requestedAt: show.time(r.created_at, user.timeZone),
      scheduledFor: show.time(r.scheduled_for, user.timeZone),
    });
    return withFormErrors<PageResult>(
      async () => {
        // The API answers a malformed id as not found; a person typed it, so say what an id looks like.
        if (filters.message_id !== '' && !isUuid(filters.message_id)) throw failure('messageIdInvalid');
        const found = await this.lookup.find(user.accountId, { ...filters, limit: String(MESSAGES_PER_PAGE), offset }, (from, to) =>
          parseLocalDayRange(from ?? '', to ?? '', user.timeZone),
        );
        if (found.kind === 'lookup') return view('dashboard/views/messages', { ...base, rows: found.rows.map(toRow), lookup: true });
        return view('dashboard/views/messages', { ...base, rows: found.rows.map(toRow), pager: pager('/messages', filters, found.page, found.total, found.rows.length) });
      },
      (error) => view('dashboard/views/messages', { ...base, rows: [], ...errorModel(error) }, error.status),
    );
  }

  async message(user: DashboardUser, messageId: string): Promise<PageResult> {
    const { message, parts } = await this.activity.message(user.accountId, messageId);
    return view('dashboard/views/message', {
      title: 'Message',
      message: {
        id: message.id,
        sendId: message.send_id,
        to: message.to_number,
        sender: message.sender,
        body: message.body,
        customRef: message.custom_ref ?? '',
        status: message.status,
        cost: show.credits(message.cost),
        encoding: message.encoding === 'ucs2' ? 'Unicode (UCS-2)' : 'GSM-7',
        parts: message.parts,
        requestedAt: show.time(message.created_at, user.timeZone),
        scheduledFor: show.time(message.scheduled_for, user.timeZone),
      },
      parts: parts.map((p) => ({
        number: `${p.part_number} of ${p.total_parts}`,
        status: p.status,
        error: p.error ?? '',
        submittedAt: show.time(p.submitted_at, user.timeZone),
        receiptAt: show.time(p.receipt_at, user.timeZone),
        // When the part settled, and what the carrier's receipt said (test accounts' receipts are simulated: no carrier receipt).
        receipt: p.receipt_at ? `${p.status} ${show.time(p.receipt_at, user.timeZone)}` : '',
        carrier: p.receipt_stat
          ? `carrier: ${p.receipt_stat}${p.receipt_err && p.receipt_err !== '000' ? `, error ${p.receipt_err}` : ''}, done ${show.time(p.receipt_done_at, user.timeZone)}`
          : '',
      })),
    });
  }
}

/** A query parameter as text; a repeated one (an array) counts as absent. */
function queryText(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
