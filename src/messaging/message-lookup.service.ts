import { Injectable } from '@nestjs/common';
import { isUuid } from '../common/validation/uuid';
import { failure } from '../common/errors/error-catalogue';
import { pageResult, parsePage } from '../common/http/pagination';
import { parseDayRange } from '../common/time/date-range';
import { HistoryFilter, MessagesRepository } from './messages.repository';
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
}

@Injectable()
export class MessageLookupService {
  constructor(private readonly messages: MessagesRepository) {}

  /** message_id wins over custom_ref; with neither it is the history. A malformed id is simply not found. */
  async query(accountId: number, input: MessagesQueryInput): Promise<LookupResult | HistoryPage> {
    if (input.message_id !== undefined && input.message_id !== '') {
      const row = isUuid(input.message_id) ? await this.messages.findById(accountId, input.message_id.toLowerCase()) : null;
      if (!row) throw failure('noMessagesFound');
      return toLookupResult([row]);
    }
    if (input.custom_ref !== undefined && input.custom_ref !== '') {
      const rows = await this.messages.findRecentByCustomRef(accountId, input.custom_ref, CUSTOM_REF_LOOKUP_LIMIT);
      if (rows.length === 0) throw failure('noMessagesFound');
      return toLookupResult(rows);
    }
    const filter = this.historyFilter(input);
    const page = parsePage(input);
    const { total, rows } = await this.messages.history(accountId, filter, page);
    return pageResult(page, total, rows.map(toHistoryShape));
  }

  private historyFilter(input: MessagesQueryInput): HistoryFilter {
    const filter: HistoryFilter = {};
    if (input.status !== undefined && input.status !== '') {
      if (!(MESSAGE_STATUSES as readonly string[]).includes(input.status)) throw failure('invalidStatusFilter');
      filter.status = input.status as MessageStatus;
    }
    return { ...filter, ...parseDayRange(input.from, input.to) };
  }
}
