import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import type { Sender } from '../senders/sender.entity';
import { numericSenderValue } from '../senders/sender-value';
import { SendersService } from '../senders/senders.service';
import type { Actor } from '../users/actor';
import { AuditLogService } from '../users/audit-log.service';
import { SenderVerificationsRepository } from './own-mobile/sender-verifications.repository';

/**
 * Deactivates an `own` or `alpha` sender (or withdraws a mobile still waiting for its link). Dedicated
 * numbers end with their subscription and shared numbers are ours, so neither can be removed here.
 * An approved Sender ID stays registered to the account: registering it again reactivates it.
 */
@Injectable()
export class SenderRemovalService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: SendersService,
    private readonly verifications: SenderVerificationsRepository,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  /** By the value a request names: a number in any form, a Sender ID exactly. */
  async deactivate(actor: Actor, requested: string): Promise<{ sender: string; type: string }> {
    if (requested.trim() === '') throw failure('required', 'sender');
    const value = numericSenderValue(requested) ?? requested.trim();
    return this.uow.run(async (tx) => this.remove(actor, await this.senders.lockByValue(actor.accountId, value, tx), tx));
  }

  /** By the sender's id (the Sender IDs page). */
  async deactivateById(actor: Actor, senderId: number): Promise<{ sender: string; type: string }> {
    return this.uow.run(async (tx) => this.remove(actor, await this.senders.lockById(actor.accountId, senderId, tx), tx));
  }

  private async remove(actor: Actor, sender: Sender | null, tx: Tx): Promise<{ sender: string; type: string }> {
    if (!sender || sender.status === 'removed') throw failure('senderNotFound');
    if (sender.type === 'dedicated') throw failure('dedicatedSenderNotRemovable');
    if (sender.type === 'shared') throw failure('sharedSenderNotRemovable');
    await this.senders.deactivate(sender.id, tx);
    await this.verifications.retireLive(sender.id, this.clock.now(), tx);
    await this.audit.record(actor, 'sender.deactivated', `${sender.value} (${sender.type}${sender.status === 'pending' ? ', awaiting confirmation' : ''})`, tx);
    return { sender: sender.value, type: sender.type };
  }
}
