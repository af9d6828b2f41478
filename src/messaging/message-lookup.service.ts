import { Injectable } from '@nestjs/common';
import { isUuid } from '../common/validation/uuid';
import { failure } from '../common/errors/error-catalogue';
import { Page, pageResult, parsePage } from '../common/http/pagination';
import { parseDayRange } from '../common/time/date-range';
import { decodeCursor, encodeCursor, HistoryPosition } from './history-cursor';
import { HistoryFilter, HistoryRow, MessageRow, MessagesRepository } from './messages.repository';
import { MESSAGE_STATUSES, MessageStatus } from './message.entity';
import { HistoryPage, LookupResult, toHistoryShape, toLookupResult } from './messages.mapper';

export const CUSTOM_REF_LOOKUP_LIMIT = 100;

export interface MessagesQueryInput {
  message_id?: string;
  custom_ref?: string;
  status?: string;
  from?: string;
  to?: string;
  limit?: string;
  offset?: string;
  cursor?: string;
}

/** What a query found: messages by id or reference, or a page of the history. */
export type FoundMessages = { kind: 'lookup'; rows: MessageRow[] } | { kind: 'history'; page: Page; total: number; rows: HistoryRow[] };

/** The days of a history query as instants: the API reads `YYYY-MM-DD` in UTC, the dashboard in the account's zone. */
export type DayRangeReader = (from: string | undefined, to: string | undefined) => { from?: Date; toExclusive?: Date };

@Injectable()
export class MessageLookupService {
  constructor(private readonly messages: MessagesRepository) {}

  /** message_id wins over custom_ref; with neither it is the history. A malformed id is simply not found; a lookup finding nothing is a 404. */
  async query(accountId: number, input: MessagesQueryInput): Promise<LookupResult | HistoryPage> {
    const found = await this.find(accountId, input, parseDayRange);
    if (found.kind === 'lookup') {
      if (found.rows.length === 0) throw failure('noMessagesFound');
      return toLookupResult(found.rows);
    }
    // A full page may have a next one: its last row is where that one starts.
    const last = found.rows.length === found.page.limit ? found.rows[found.rows.length - 1] : undefined;
    return { ...pageResult(found.page, found.total, found.rows.map(toHistoryShape)), next_cursor: last ? encodeCursor(last) : null };
  }

  /** The rows behind query(), for pages that show them their own way (times in the account's zone); a lookup may find none. */
  async find(accountId: number, input: MessagesQueryInput, readDays: DayRangeReader): Promise<FoundMessages> {
    if (input.message_id !== undefined && input.message_id !== '') {
      const row = isUuid(input.message_id) ? await this.messages.findById(accountId, input.message_id.toLowerCase()) : null;
      return { kind: 'lookup', rows: row ? [row] : [] };
    }
    if (input.custom_ref !== undefined && input.custom_ref !== '') {
      return { kind: 'lookup', rows: await this.messages.findRecentByCustomRef(accountId, input.custom_ref, CUSTOM_REF_LOOKUP_LIMIT) };
    }
    const filter = this.historyFilter(input, readDays);
    const page = parsePage(input);
    const { total, rows } = await this.messages.history(accountId, filter, page, this.position(input.cursor));
    return { kind: 'history', page, total, rows };
  }

  private position(cursor: string | undefined): HistoryPosition | undefined {
    if (cursor === undefined || cursor === '') return undefined;
    const position = decodeCursor(cursor);
    if (!position) throw failure('invalidCursor');
    return position;
  }

  private historyFilter(input: MessagesQueryInput, readDays: DayRangeReader): HistoryFilter {
    const filter: HistoryFilter = {};
    if (input.status !== undefined && input.status !== '') {
      if (!(MESSAGE_STATUSES as readonly string[]).includes(input.status)) throw failure('invalidStatusFilter');
      filter.status = input.status as MessageStatus;
    }
    return { ...filter, ...readDays(input.from, input.to) };
  }
}
