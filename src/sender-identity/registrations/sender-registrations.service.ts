import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { failure } from '../../common/errors/error-catalogue';
import { Page, PageResult, pageResult } from '../../common/http/pagination';
import { Clock } from '../../common/time/clock';
import { AppConfig } from '../../config/app-config';
import { Tx, UnitOfWork } from '../../database/unit-of-work';
import { MailTemplates } from '../../mail/mail-templates';
import { MailService } from '../../mail/mail.service';
import { SendersService } from '../../senders/senders.service';
import { operatorActor, type Actor } from '../../users/actor';
import { AuditLogService } from '../../users/audit-log.service';
import { UsersService } from '../../users/users.service';
import { brandKeyOf } from '../sender-id';
import { checkRegistration, RegistrationInput } from './registration-input';
import { RegistrationState, SenderRegistration } from './sender-registration.entity';
import { RegistrationWithAccount, SenderRegistrationsRepository } from './sender-registrations.repository';
import { RegistrationView, toRegistrationView } from './sender-registrations.mapper';

export const MAX_REJECTION_REASON_LENGTH = 500;

/** What an operator's decision did: the registration, and who was emailed about it. */
export interface Decision {
  registration: SenderRegistration;
  emailed: string[];
}

/**
 * ACMA Sender ID registrations: submitted by an account (API key or dashboard user), reviewed by an
 * operator (CLI). Approval makes the Sender ID an active `alpha` sender of the account; the owner and
 * the submitting user are emailed on approval and rejection. A brand belongs to one business.
 */
@Injectable()
export class SenderRegistrationsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly registrations: SenderRegistrationsRepository,
    private readonly senders: SendersService,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Submits a registration for review. An approved Sender ID of this account that was deactivated is
   * active again at once (the answer says `approved`); any other live registration of the brand is refused.
   */
  async submit(actor: Actor, input: RegistrationInput): Promise<SenderRegistration> {
    const checked = checkRegistration(input);
    if (checked.brandKey === brandKeyOf(this.config.systemSender)) throw failure('senderIdReserved');
    return this.uow.run(async (tx) => {
      const active = await this.senders.active(actor.accountId, tx);
      const taken = active.match(checked.sender) ?? active.values().find((v) => brandKeyOf(v) === checked.brandKey);
      if (taken) throw failure('senderIdAlreadyActive');
      const inserted = await this.registrations.insertUnlessBrandTaken(
        { ...checked, accountId: actor.accountId, userId: actor.userId, apiKeyId: actor.apiKeyId ?? null, submittedAt: this.clock.now() },
        tx,
      );
      if (inserted) {
        await this.audit.record(actor, 'sender_registration.submitted', `${inserted.sender} (registration ${inserted.id})`, tx);
        return inserted;
      }
      return this.resolveTakenBrand(actor, checked.brandKey, tx);
    });
  }

  private async resolveTakenBrand(actor: Actor, brandKey: string, tx: Tx): Promise<SenderRegistration> {
    const live = await this.registrations.findLiveByBrand(brandKey, tx);
    if (!live || live.accountId !== actor.accountId) throw failure('senderIdRegisteredElsewhere');
    if (live.state === 'submitted') throw failure('senderIdAwaitingReview');
    await this.senders.activate(actor.accountId, live.sender, 'alpha', live.businessName, tx);
    await this.audit.record(actor, 'sender_registration.reactivated', `${live.sender} (registration ${live.id})`, tx);
    return live;
  }

  async page(accountId: number, state: RegistrationState | undefined, page: Page): Promise<PageResult<RegistrationView>> {
    const { total, rows } = await this.registrations.page(accountId, state, page);
    return pageResult(page, total, rows.map(toRegistrationView));
  }

  async listAll(state?: RegistrationState): Promise<RegistrationWithAccount[]> {
    return this.registrations.listAll(state);
  }

  /** Operator: approves a submitted registration; the Sender ID is active as `alpha` at once. */
  async approve(id: number): Promise<Decision> {
    return this.decide(id, 'approved', null);
  }

  /** Operator: rejects a submitted registration with the reason the account is told. */
  async reject(id: number, reason: string): Promise<Decision> {
    const text = reason.trim().replace(/\s+/g, ' ');
    if (text === '') throw failure('required', 'reason');
    if (text.length > MAX_REJECTION_REASON_LENGTH) throw failure('rejectionReasonTooLong');
    return this.decide(id, 'rejected', text);
  }

  private async decide(id: number, state: 'approved' | 'rejected', reason: string | null): Promise<Decision> {
    return this.uow.run(async (tx) => {
      const registration = await this.registrations.decide(id, state, reason, this.clock.now(), tx);
      if (!registration) {
        const found = await this.registrations.findById(id, tx);
        throw found ? failure('registrationAlreadyDecided', id, found.state) : failure('registrationNotFound', id);
      }
      if (state === 'approved') await this.senders.activate(registration.accountId, registration.sender, 'alpha', registration.businessName, tx);
      const detail = `${registration.sender} (registration ${id})${reason ? `: ${reason}` : ''}`;
      await this.audit.record(operatorActor(registration.accountId), state === 'approved' ? 'sender_registration.approved' : 'sender_registration.rejected', detail, tx);
      const emailed = await this.recipients(registration);
      const accountName = (await this.accounts.get(registration.accountId, tx)).name;
      const facts = { accountName, sender: registration.sender, registrationId: id };
      for (const to of emailed) {
        const mail = state === 'approved' ? MailTemplates.senderRegistrationApproved(to, facts) : MailTemplates.senderRegistrationRejected(to, { ...facts, reason: reason! });
        tx.afterCommit(() => this.mail.send(mail));
      }
      return { registration, emailed };
    });
  }

  /** The account's owner and the user who submitted (when a user did and is still on the account), each once. */
  private async recipients(registration: SenderRegistration): Promise<string[]> {
    const users = await this.users.list(registration.accountId);
    const emails = users.filter((u) => u.isOwner || u.id === registration.userId).map((u) => u.email);
    return [...new Set(emails)];
  }
}
