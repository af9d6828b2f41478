import { Injectable, Logger } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { MailTemplates } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import type { Actor } from '../users/actor';
import { AuditLogService } from '../users/audit-log.service';
import { PERMISSIONS } from '../users/permissions';
import { UsersService } from '../users/users.service';
import { brakeLimits, brakeWindow } from './sending-brake.policy';
import { BrakeState, SendingBrakeRepository } from './sending-brake.repository';

/** Thrown inside a send's transaction when its messages would take the last hour over the limit. */
export class BrakeTripped extends Error {
  constructor(
    readonly accountId: number,
    readonly volume: number,
    readonly limit: number,
  ) {
    super('sending brake tripped');
  }
}

/** Who pauses an account in the audit log. */
function brakeActor(accountId: number): Actor {
  return { userId: null, accountId, email: 'sending brake', isOwner: false, permissions: [...PERMISSIONS], ip: '' };
}

/**
 * The spending brake: every send of a live account is counted against the account's own history (its
 * busiest recent hour times SENDING_BRAKE_MULTIPLIER, never below SENDING_BRAKE_ALLOWANCE) in the send's
 * transaction, in one UPDATE of the account's brake row. A send that would go over is refused and pauses
 * the account: every later send is refused until an owner or an operator releases it; the owner and the
 * operators are emailed once per pause. Test accounts are never counted (they cost nothing).
 */
@Injectable()
export class SendingBrakeService {
  private readonly logger = new Logger(SendingBrakeService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: SendingBrakeRepository,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * In a send's transaction: counts its messages, or throws — sendingPaused when the account is paused,
   * BrakeTripped when these messages would go over (the caller rolls back, then calls `trip`).
   */
  async admit(accountId: number, count: number, tx: Tx): Promise<void> {
    const window = brakeWindow(this.clock.now());
    const limits = brakeLimits(this.config);
    // Rare after the first try: the account's first send, a paused account, a send over the limit, or
    // another send's first row that appeared between our UPDATE and our look (then the UPDATE runs again).
    let state: BrakeState | null = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.repo.admit(accountId, count, window, limits, tx)) return;
      state = await this.repo.stateOf(accountId, window, limits, tx);
      if (!state) await this.repo.create(accountId, window, tx);
      else if (state.pausedAt) throw failure('sendingPaused');
      else if (state.lastHour + count > state.limit) break;
    }
    const lastHour = state?.lastHour ?? 0;
    throw new BrakeTripped(accountId, Math.ceil(lastHour + count), Math.floor(state?.limit ?? this.config.sendingBrakeAllowance));
  }

  /** After the held send rolled back: pauses the account (audited; owner and operators emailed once) and answers the 403 to give. */
  async trip(tripped: BrakeTripped): Promise<DomainError> {
    const { accountId, volume, limit } = tripped;
    const paused = await this.uow.run(async (tx) => {
      const now = this.clock.now();
      if (!(await this.repo.pause(accountId, now, volume, limit, brakeWindow(now), tx))) return false;
      await this.audit.record(brakeActor(accountId), 'sending.paused', `${volume} messages in the last hour, over the limit of ${limit}`, tx);
      return true;
    });
    if (paused) {
      this.logger.warn({ msg: 'sending paused by the brake', account_id: accountId, volume, limit });
      void this.tell(accountId, volume, limit).catch((err: unknown) => this.logger.error({ msg: 'sending brake mail failed', account_id: accountId, err }));
    }
    return failure('sendingPaused');
  }

  /** Where an account stands (null: it never sent from a live account). */
  async state(accountId: number): Promise<BrakeState | null> {
    return this.repo.stateOf(accountId, brakeWindow(this.clock.now()), brakeLimits(this.config));
  }

  /** An owner (dashboard) or an operator (`account:release-brake`) lets the account send again; audited. */
  async release(actor: Actor): Promise<{ released: boolean; pausedAt: Date | null; pausedVolume: number | null }> {
    return this.uow.run(async (tx) => {
      const released = await this.repo.release(actor.accountId, tx);
      if (!released) return { released: false, pausedAt: null, pausedVolume: null };
      await this.audit.record(actor, 'sending.released', `paused at ${released.pausedAt.toISOString()} (${released.pausedVolume ?? '?'} messages in an hour)`, tx);
      return { released: true, ...released };
    });
  }

  private async tell(accountId: number, volume: number, limit: number): Promise<void> {
    const [account, owner] = await Promise.all([this.accounts.get(accountId), this.users.ownerOf(accountId)]);
    const operators = (this.config.operatorEmail ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const input = { accountId, accountName: account.name, volume, limit, securityLink: `${this.config.dashboardUrl}/settings/security` };
    if (owner) await this.mail.send(MailTemplates.sendingPaused(owner.email, input));
    for (const to of operators) await this.mail.send(MailTemplates.sendingPausedOperator(to, input));
  }
}
