import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { isUuid } from '../common/validation/uuid';
import { MessageActivityRepository, MessageDetailRow, PartRow, SendSummaryRow } from './message-activity.repository';

export const RECENT_SENDS = 10;

/** What the dashboard shows of an account's messaging beyond the API's history: sends with counts, a message with its parts and receipts. */
@Injectable()
export class MessageActivityService {
  constructor(private readonly activity: MessageActivityRepository) {}

  async recentSends(accountId: number, limit = RECENT_SENDS): Promise<SendSummaryRow[]> {
    return this.activity.recentSends(accountId, limit);
  }

  async message(accountId: number, messageId: string): Promise<{ message: MessageDetailRow; parts: PartRow[] }> {
    const id = messageId.toLowerCase();
    const message = isUuid(id) ? await this.activity.message(accountId, id) : null;
    if (!message) throw failure('messageNotFound');
    return { message, parts: await this.activity.parts(accountId, id) };
  }
}
