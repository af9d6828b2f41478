import { Injectable } from '@nestjs/common';
import type { Page } from '../common/http/pagination';
import { Clock } from '../common/time/clock';
import { Tx } from '../database/unit-of-work';
import type { Actor } from './actor';
import { AuditLogRepository, AuditRow } from './audit-log.repository';

/**
 * The actions the audit log records (state changes on an account; sign-in and sign-out included). A credit
 * purchase made without an API key is recorded by its outcome (bought, declined, held, refunded), in the
 * transaction that records it: never as bought before the payment was taken.
 */
export type AuditAction =
  | 'signed_in'
  | 'signed_out'
  | 'password.set'
  | 'password.reset'
  | 'password.changed'
  | 'profile.renamed'
  | 'user.created'
  | 'user.invited'
  | 'user.invitation_resent'
  | 'user.link_issued'
  | 'user.permissions_changed'
  | 'user.removed'
  | 'ownership.transferred'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'api_key.purchases_enabled'
  | 'api_key.purchases_disabled'
  | 'api_key.daily_limit_raised'
  | 'api_key.daily_limit_lowered'
  | 'api_key.access_changed'
  | 'webhooks.updated'
  | 'webhooks.secret_rotated'
  | 'webhooks.test_event_sent'
  | 'webhooks.redelivered'
  | 'sender.own_registered'
  | 'sender.own_link_resent'
  | 'sender.own_confirmed'
  | 'sender.deactivated'
  | 'sender_registration.submitted'
  | 'sender_registration.reactivated'
  | 'sender_registration.approved'
  | 'sender_registration.rejected'
  | 'dedicated_number.free_claimed'
  | 'billing.card_added'
  | 'billing.card_removed'
  | 'billing.email_changed'
  | 'billing.credits_bought'
  | 'billing.auto_recharged'
  | 'billing.credit_purchase_declined'
  | 'billing.credit_purchase_held'
  | 'billing.credit_purchase_released'
  | 'billing.credit_purchase_refunded'
  | 'billing.auto_recharge_changed'
  | 'billing.auto_recharge_stopped'
  | 'billing.low_balance_warning_changed'
  | 'account.time_zone_changed'
  | 'account.quiet_hours_changed'
  | 'account.signed_up'
  | 'account.live_requested'
  | 'account.live_approved'
  | 'account.live_declined'
  | 'optout.added'
  | 'optout.removed'
  | 'two_factor.enabled'
  | 'two_factor.disabled'
  | 'two_factor.reset'
  | 'two_factor.recovery_code_used'
  | 'two_factor.required'
  | 'two_factor.not_required'
  | 'sending.paused'
  | 'sending.released';

@Injectable()
export class AuditLogService {
  constructor(
    private readonly repo: AuditLogRepository,
    private readonly clock: Clock,
  ) {}

  /** In the caller's transaction, so the entry exists exactly when the change does. */
  async record(actor: Actor, action: AuditAction, detail: string, tx?: Tx): Promise<void> {
    await this.repo.insert({ accountId: actor.accountId, userId: actor.userId, actor: actor.email, action, detail, ip: actor.ip, at: this.clock.now() }, tx);
  }

  async page(accountId: number, page: Page): Promise<{ total: number; rows: AuditRow[] }> {
    return this.repo.page(accountId, page);
  }
}
