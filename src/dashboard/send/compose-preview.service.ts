import { Injectable } from '@nestjs/common';
import { gsm7Length, type SmsEncoding } from '../../common/sms';
import { ListSendService } from '../../messaging/list-send.service';
import { SendBatchService } from '../../messaging/send-batch.service';
import { show } from '../format';
import type { ComposeRequest } from './compose-form';

/** How many refused recipients a preview names (the count says how many there are in all). */
export const PREVIEW_ERRORS_SHOWN = 20;

/** What a send would be, as the compose page shows it (and its script receives as JSON). */
export interface ComposePreview {
  /** Messages that would be sent. */
  recipients: number;
  /** Numbers left out because they unsubscribed. */
  blocked: number;
  /** List members left out because their text would be too long. */
  skipped: number;
  /** Numbers refused, with the API's reason (the first PREVIEW_ERRORS_SHOWN). */
  errors: Array<{ to: string; error: string }>;
  errorCount: number;
  /** The first message as it would be sent. */
  sample: { to: string; text: string; encoding: string; characters: number; parts: number } | null;
  totalParts: number;
  /** Credits, two decimals. */
  cost: string;
  /** When quiet hours hold the send: the time (in the account's zone) its first held message goes; '' when they hold none. */
  heldUntil: string;
}

function encodingLabel(encoding: SmsEncoding): string {
  return encoding === 'ucs2' ? 'Unicode (UCS-2)' : 'GSM-7';
}

/** Characters as the encoding counts them (GSM-7 extension characters such as € count twice). */
function characters(text: string, encoding: SmsEncoding): number {
  return encoding === 'ucs2' ? text.length : gsm7Length(text);
}

/**
 * The compose page's preview: the send services' own dry run (their checks, rendering, parts, prices and
 * unsubscribe filter), summarised. The page always allows Unicode, as a list send does: the preview
 * shows the encoding and parts it costs.
 */
@Injectable()
export class ComposePreviewService {
  constructor(
    private readonly batch: SendBatchService,
    private readonly listSend: ListSendService,
  ) {}

  async preview(accountId: number, request: ComposeRequest, timeZone: string): Promise<ComposePreview> {
    const scheduledFor = request.scheduledAt ? request.scheduledAt.toISOString() : undefined;
    if (request.recipients.kind === 'list') {
      const { counts, first, totalParts, heldUntil } = await this.listSend.preview(accountId, {
        listId: request.recipients.listId,
        sender: request.sender,
        message: request.message,
        scheduledFor,
        staggerMinutes: request.staggerMinutes,
        shortenUrls: request.shortenUrls,
      });
      return {
        recipients: counts.recipients,
        blocked: counts.blockedUnsubscribed,
        skipped: counts.skippedTooLong,
        errors: [],
        errorCount: 0,
        sample: { to: first.to, text: first.body, encoding: encodingLabel(first.encoding), characters: characters(first.body, first.encoding), parts: first.parts },
        totalParts,
        cost: show.credits(counts.totalCost),
        heldUntil: show.time(heldUntil, timeZone),
      };
    }
    const { composed } = await this.batch.preview(accountId, {
      messages: request.recipients.numbers.map((to) => ({ to, message: request.message, sender: request.sender, scheduled_for: scheduledFor })),
      enableUnicode: true,
      shortenUrls: request.shortenUrls,
    });
    let recipients = 0;
    let blocked = 0;
    let totalParts = 0;
    let cost = 0;
    let sample: ComposePreview['sample'] = null;
    const errors: ComposePreview['errors'] = [];
    let errorCount = 0;
    for (const entry of composed) {
      if (entry.ok) {
        recipients++;
        totalParts += entry.parts;
        cost += entry.cost;
        sample ??= { to: entry.to, text: entry.text, encoding: encodingLabel(entry.encoding), characters: characters(entry.text, entry.encoding), parts: entry.parts };
      } else if (entry.blocked) {
        blocked++;
      } else {
        errorCount++;
        if (errors.length < PREVIEW_ERRORS_SHOWN) errors.push({ to: entry.to, error: entry.error });
      }
    }
    // The page's sends to numbers do not ask for quiet hours (transactional sends are never held).
    return { recipients, blocked, skipped: 0, errors, errorCount, sample, totalParts, cost: show.credits(cost), heldUntil: '' };
  }
}
