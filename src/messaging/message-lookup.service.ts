import { Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError } from '../common/errors/domain-error';
import { ErrorText } from '../common/errors/error-catalogue';
import { Page } from '../common/http/pagination';
import { HistoryFilter, MessagesRepository } from './messages.repository';
import { MESSAGE_STATUSES, MessageStatus } from './message.entity';
import { toHistoryShape, toLookupShape } from './messages.mapper';

export const CUSTOM_REF_LOOKUP_LIMIT = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface MessagesQueryInput {
  message_id?: string;
  custom_ref?: string;
  status?: string;
  from?: string;
  to?: string;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A `YYYY-MM-DD` day as its UTC midnight, or null when it is not a real date. */
export function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]) ? date : null;
}

@Injectable()
export class MessageLookupService {
  constructor(private readonly messages: MessagesRepository) {}

  /** message_id wins over custom_ref; with neither it is the history. A malformed id is simply not found. */
  async query(accountId: number, input: MessagesQueryInput, page: Page) {
    if (input.message_id !== undefined && input.message_id !== '') {
      const row = isUuid(input.message_id) ? await this.messages.findById(accountId, input.message_id.toLowerCase()) : null;
      if (!row) throw new NotFoundError(ErrorText.noMessagesFound);
      return { status: 'complete' as const, results: [toLookupShape(row)] };
    }
    if (input.custom_ref !== undefined && input.custom_ref !== '') {
      const rows = await this.messages.findRecentByCustomRef(accountId, input.custom_ref, CUSTOM_REF_LOOKUP_LIMIT);
      if (rows.length === 0) throw new NotFoundError(ErrorText.noMessagesFound);
      return { status: 'complete' as const, results: rows.map(toLookupShape) };
    }
    const { total, rows } = await this.messages.history(accountId, this.historyFilter(input), page);
    return { status: 'complete' as const, total, limit: page.limit, offset: page.offset, results: rows.map(toHistoryShape) };
  }

  private historyFilter(input: MessagesQueryInput): HistoryFilter {
    const filter: HistoryFilter = {};
    if (input.status !== undefined && input.status !== '') {
      if (!(MESSAGE_STATUSES as readonly string[]).includes(input.status)) throw new InvalidRequestError(ErrorText.invalidStatusFilter);
      filter.status = input.status as MessageStatus;
    }
    if (input.from !== undefined && input.from !== '') {
      const from = parseDay(input.from);
      if (!from) throw new InvalidRequestError(ErrorText.invalidDate('from'));
      filter.from = from;
    }
    if (input.to !== undefined && input.to !== '') {
      const to = parseDay(input.to);
      if (!to) throw new InvalidRequestError(ErrorText.invalidDate('to'));
      filter.toExclusive = new Date(to.getTime() + DAY_MS); // inclusive of the whole `to` day
    }
    return filter;
  }
}
