import { Injectable } from '@nestjs/common';
import { AccountsService, NewAccount } from '../accounts/accounts.service';
import { Account } from '../accounts/account.entity';
import type { IssuedApiKey } from '../accounts/api-keys.service';
import { failure } from '../common/errors/error-catalogue';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { MailTemplates } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import { Actor, operatorActor } from './actor';
import { AuditLogService } from './audit-log.service';
import { normaliseEmail } from './email';
import { hashPassword, verifyPassword } from './password-hash';
import { checkNewPassword } from './password-policy';
import { isPermission, Permission, PERMISSIONS } from './permissions';
import { SessionsService } from './sessions.service';
import { LINK_LIFETIME_MS, UserLinksService } from './user-links.service';
import type { UserTokenPurpose } from './user-token.entity';
import { UserRecord, UsersRepository } from './users.repository';

export const MAX_NAME_LENGTH = 100;

export interface NewUser {
  email: string;
  name?: string;
  owner?: boolean;
  permissions?: string[];
}

/** A user just created, with the single-use link emailed to them (printed by the CLI too). */
export interface CreatedUser {
  user: UserRecord;
  link: string;
}

function checkedPermissions(values: readonly string[]): Permission[] {
  for (const value of values) if (!isPermission(value)) throw failure('unknownPermission', value, PERMISSIONS.join(', '));
  return PERMISSIONS.filter((p) => values.includes(p));
}

function checkedName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (trimmed.length > MAX_NAME_LENGTH) throw failure('nameTooLong');
  return trimmed;
}

/**
 * An account's people. Exactly one owner per account: created first, never removed, handed on only by a
 * transfer (the database allows at most one; these rules keep at least one). Only the owner manages
 * users; every change is in the audit log, in the same transaction.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsService,
    private readonly links: UserLinksService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
  ) {}

  async list(accountId: number): Promise<UserRecord[]> {
    return this.users.listForAccount(accountId);
  }

  async get(accountId: number, userId: number): Promise<UserRecord> {
    const user = await this.users.findById(userId);
    if (!user || user.accountId !== accountId) throw failure('userNotFound');
    return user;
  }

  async ownerOf(accountId: number): Promise<UserRecord | null> {
    return this.users.ownerOf(accountId);
  }

  /** Operator CLI: account:create --owner-email, all or nothing. */
  async createAccountWithOwner(input: NewAccount, ownerEmail: string): Promise<{ account: Account; key: IssuedApiKey; owner: CreatedUser }> {
    return this.uow.run(async (tx) => {
      const { account, key } = await this.accounts.create(input, tx);
      const owner = await this.addUser(operatorActor(account.id), account, { email: ownerEmail, owner: true }, 'user.created', tx);
      return { account, key, owner };
    });
  }

  /** True when someone signs in with this (normalised) email. */
  async emailInUse(email: string): Promise<boolean> {
    return (await this.users.findByEmail(email)) !== null;
  }

  /**
   * Sign-up: the owner of a just-opened account, with the password they chose when signing up (its
   * hash). A taken email (someone else signed up with it meanwhile) is refused and the caller's
   * transaction rolls back.
   */
  async addSignedUpOwner(accountId: number, input: { email: string; name: string; passwordHash: string }, tx: Tx): Promise<UserRecord> {
    const name = checkedName(input.name);
    await this.users.lockAccount(accountId, tx);
    const user = await this.users.insert({ accountId, email: input.email, name, isOwner: true, permissions: [] }, tx);
    if (!user) throw failure('emailTaken');
    await this.users.setPasswordHash(user.id, input.passwordHash, tx);
    return { ...user, hasPassword: true };
  }

  /** Operator CLI: user:create. The first user of an account must be its owner; a second owner is refused. */
  async createByOperator(accountId: number, input: NewUser): Promise<CreatedUser> {
    return this.uow.run(async (tx) => {
      const account = await this.accounts.get(accountId, tx);
      return this.addUser(operatorActor(accountId), account, input, 'user.created', tx);
    });
  }

  /** The owner invites someone: they get an email with a link to set their password (24 h, once). */
  async invite(actor: Actor, input: NewUser): Promise<CreatedUser> {
    if (!actor.isOwner) throw failure('ownerOnly');
    return this.uow.run(async (tx) => {
      const account = await this.accounts.get(actor.accountId, tx);
      return this.addUser(actor, account, { ...input, owner: false }, 'user.invited', tx);
    });
  }

  async resendInvitation(actor: Actor, userId: number): Promise<CreatedUser> {
    if (!actor.isOwner) throw failure('ownerOnly');
    return this.uow.run(async (tx) => {
      const account = await this.accounts.get(actor.accountId, tx);
      const user = await this.users.findInAccountForUpdate(actor.accountId, userId, tx);
      if (!user || user.hasPassword) throw failure('userNotFound');
      const link = await this.sendInvitation(account, user, tx);
      await this.audit.record(actor, 'user.invitation_resent', user.email, tx);
      return { user, link };
    });
  }

  async setPermissions(actor: Actor, userId: number, permissions: string[]): Promise<UserRecord> {
    if (!actor.isOwner) throw failure('ownerOnly');
    const wanted = checkedPermissions(permissions);
    return this.uow.run(async (tx) => {
      const user = await this.users.findInAccountForUpdate(actor.accountId, userId, tx);
      if (!user) throw failure('userNotFound');
      if (user.isOwner) throw failure('ownerPermissionsFixed');
      await this.users.setPermissions(user.id, wanted, tx);
      await this.audit.record(actor, 'user.permissions_changed', `${user.email}: ${wanted.length ? wanted.join(', ') : 'none'}`, tx);
      return { ...user, permissions: wanted };
    });
  }

  /** Removes a user (their sessions end with them). The owner cannot be removed. */
  async remove(actor: Actor, userId: number): Promise<UserRecord> {
    if (!actor.isOwner) throw failure('ownerOnly');
    return this.uow.run(async (tx) => {
      const user = await this.users.findInAccountForUpdate(actor.accountId, userId, tx);
      if (!user) throw failure('userNotFound');
      if (user.isOwner) throw failure('ownerCannotBeRemoved');
      await this.users.delete(actor.accountId, user.id, tx);
      await this.audit.record(actor, 'user.removed', user.email, tx);
      return user;
    });
  }

  /** Hands ownership to another user who has signed up; the former owner keeps every permission. */
  async transferOwnership(actor: Actor, toUserId: number): Promise<UserRecord> {
    if (!actor.isOwner || actor.userId === null) throw failure('ownerOnly');
    const fromUserId = actor.userId;
    return this.uow.run(async (tx) => {
      await this.users.lockAccount(actor.accountId, tx);
      const owner = await this.users.ownerOf(actor.accountId, tx);
      if (!owner || owner.id !== fromUserId) throw failure('ownerOnly');
      const target = await this.users.findInAccountForUpdate(actor.accountId, toUserId, tx);
      if (!target) throw failure('userNotFound');
      if (target.id === owner.id) throw failure('ownershipToSelf');
      if (!target.hasPassword) throw failure('ownershipNeedsPassword');
      await this.users.transferOwnership(actor.accountId, owner.id, target.id, [...PERMISSIONS], tx);
      await this.audit.record(actor, 'ownership.transferred', `${owner.email} → ${target.email}`, tx);
      return target;
    });
  }

  /** Needs the current password; every other session of the user ends. */
  async changePassword(actor: Actor & { sessionId: number }, current: string, password: string, confirmation: string): Promise<void> {
    if (actor.userId === null) throw failure('permissionRequired');
    const userId = actor.userId;
    const stored = await this.users.passwordHashOf(userId);
    if (!stored || !(await verifyPassword(current, stored))) throw failure('currentPasswordWrong');
    checkNewPassword(password, confirmation);
    const hash = await hashPassword(password);
    await this.uow.run(async (tx) => {
      await this.users.setPasswordHash(userId, hash, tx);
      await this.sessions.endForUser(userId, actor.sessionId, tx);
      await this.audit.record(actor, 'password.changed', '', tx);
    });
  }

  async rename(actor: Actor, name: string): Promise<void> {
    if (actor.userId === null) throw failure('permissionRequired');
    const userId = actor.userId;
    const checked = checkedName(name);
    await this.uow.run(async (tx) => {
      await this.users.setName(userId, checked, tx);
      await this.audit.record(actor, 'profile.renamed', checked, tx);
    });
  }

  /**
   * Operator CLI (user:reset-link): a new single-use link for the user, emailed and returned; their older
   * links stop working. An invitation (24 h) while they have never set a password, else a reset (1 h).
   */
  async issueLinkByOperator(emailText: string): Promise<CreatedUser & { purpose: UserTokenPurpose }> {
    const email = normaliseEmail(emailText);
    if (!email) throw failure('emailInvalid');
    return this.uow.run(async (tx) => {
      const user = await this.users.findByEmail(email, tx);
      if (!user) throw failure('userEmailNotFound', email);
      const account = await this.accounts.get(user.accountId, tx);
      const purpose: UserTokenPurpose = user.hasPassword ? 'password_reset' : 'invitation';
      const link = purpose === 'invitation' ? await this.sendInvitation(account, user, tx) : await this.sendReset(user, tx);
      await this.audit.record(operatorActor(user.accountId), 'user.link_issued', `${email} (${purpose === 'invitation' ? 'invitation' : 'password reset'})`, tx);
      return { user, link, purpose };
    });
  }

  private async addUser(actor: Actor, account: Account, input: NewUser, action: 'user.created' | 'user.invited', tx: Tx): Promise<CreatedUser> {
    const email = normaliseEmail(input.email);
    if (!email) throw failure('emailInvalid');
    const owner = input.owner === true;
    const permissions = owner ? [] : checkedPermissions(input.permissions ?? []);
    const name = checkedName(input.name);
    await this.users.lockAccount(account.id, tx);
    const existingOwner = await this.users.ownerOf(account.id, tx);
    if (owner && existingOwner) throw failure('accountHasOwner', account.id);
    if (!owner && !existingOwner) throw failure('accountHasNoOwner', account.id);
    const user = await this.users.insert({ accountId: account.id, email, name, isOwner: owner, permissions }, tx);
    if (!user) throw failure('emailTaken');
    const link = await this.sendInvitation(account, user, tx);
    await this.audit.record(actor, action, `${email}${owner ? ' (owner)' : permissions.length ? `: ${permissions.join(', ')}` : ''}`, tx);
    return { user, link };
  }

  private async sendReset(user: UserRecord, tx: Tx): Promise<string> {
    const link = await this.links.issue(user.id, 'password_reset', tx);
    const mail = MailTemplates.passwordReset(user.email, { link, validMinutes: LINK_LIFETIME_MS.password_reset / 60_000 });
    tx.afterCommit(() => this.mail.send(mail));
    return link;
  }

  private async sendInvitation(account: Account, user: UserRecord, tx: Tx): Promise<string> {
    const link = await this.links.issue(user.id, 'invitation', tx);
    const mail = MailTemplates.invitation(user.email, { accountName: account.name, link, validHours: LINK_LIFETIME_MS.invitation / 3_600_000 });
    tx.afterCommit(() => this.mail.send(mail));
    return link;
  }
}
