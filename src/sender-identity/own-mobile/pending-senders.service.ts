import { Injectable } from '@nestjs/common';
import type { MessageStatus } from '../../messaging/message.entity';
import { SystemMessagesService } from '../../messaging/system-messages.service';
import type { Sender } from '../../senders/sender.entity';
import { SendersService } from '../../senders/senders.service';
import { SenderVerificationsRepository } from './sender-verifications.repository';

/** A sender as the Sender IDs page shows it; a mobile waiting for its link also says where its last text is. */
export interface CurrentSender {
  sender: Sender;
  confirmation?: { sentAt: Date; expiresAt: Date; textStatus: MessageStatus | 'unknown' };
}

/** The account's active and pending senders, with each pending mobile's latest confirmation text (three queries). */
@Injectable()
export class PendingSendersService {
  constructor(
    private readonly senders: SendersService,
    private readonly verifications: SenderVerificationsRepository,
    private readonly systemMessages: SystemMessagesService,
  ) {}

  async current(accountId: number): Promise<CurrentSender[]> {
    const senders = await this.senders.current(accountId);
    const pending = senders.filter((s) => s.status === 'pending');
    const latest = new Map((await this.verifications.latestForSenders(pending.map((s) => s.id))).map((v) => [v.senderId, v]));
    const statuses = await this.systemMessages.statuses([...latest.values()].flatMap((v) => (v.messageId ? [v.messageId] : [])));
    return senders.map((sender) => {
      const v = latest.get(sender.id);
      if (!v) return { sender };
      return { sender, confirmation: { sentAt: v.createdAt, expiresAt: v.expiresAt, textStatus: (v.messageId && statuses.get(v.messageId)) || 'unknown' } };
    });
  }
}
