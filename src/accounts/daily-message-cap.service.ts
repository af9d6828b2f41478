import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { Tx } from '../database/unit-of-work';
import { DailyMessageCapRepository } from './daily-message-cap.repository';

/**
 * An API key's optional daily message cap: messages (recipients, whatever their parts) accepted per
 * calendar day in the account's time zone. Taken inside the send's transaction (SendWriter), so a send
 * that would go over is refused whole before anything is written or charged, and two concurrent sends
 * cannot both pass. Counting starts when a cap is set; a key without one is not counted.
 */
@Injectable()
export class DailyMessageCap {
  constructor(
    private readonly counts: DailyMessageCapRepository,
    private readonly clock: Clock,
  ) {}

  /** Counts `messages` against the key's cap for today; 403 `Daily message limit of N reached for this API key` when over. */
  async take(apiKeyId: number | null, messages: number, tx: Tx): Promise<void> {
    if (apiKeyId === null || messages <= 0) return;
    const key = await this.counts.capAndDay(apiKeyId, this.clock.now(), tx);
    if (!key || key.cap === null) return;
    if (messages > key.cap || !(await this.counts.take(apiKeyId, key.day, messages, key.cap, tx))) throw failure('dailyMessageCapReached', key.cap);
  }
}
