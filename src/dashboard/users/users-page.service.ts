import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { formList, formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { PERMISSION_LABELS, PERMISSIONS } from '../../users/permissions';
import type { UserRecord } from '../../users/users.repository';
import { TwoFactorService } from '../../users/two-factor/two-factor.service';
import { UsersService } from '../../users/users.service';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES, pagesForEveryone } from '../navigation';
import { noticeFor, withNotice } from '../notices';

/** A user id from a path: anything but a positive integer is a user that does not exist. */
function userIdOf(text: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw failure('userNotFound');
  return Number(text);
}

/** What every user sees whatever their permissions, in words: "Overview, Campaigns, Reports and Messages". */
const EVERYONE_SEES = ((labels: string[]) => `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`)(pagesForEveryone());

function roleOf(user: UserRecord): string {
  if (user.isOwner) return 'Owner (everything)';
  return user.permissions.length ? user.permissions.map((p) => PERMISSION_LABELS[p as keyof typeof PERMISSION_LABELS] ?? p).join(', ') : `Viewing only (${EVERYONE_SEES})`;
}

const permissionChoices = (selected: readonly string[]) => PERMISSIONS.map((value) => ({ value, label: PERMISSION_LABELS[value], checked: selected.includes(value) }));

/** Users (owner only): invite, change permissions, remove, hand on ownership. The services check the owner rule too. */
@Injectable()
export class UsersPageService {
  constructor(
    private readonly users: UsersService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: FormError, typed?: { email: string; name: string; permissions: string[] }): Promise<PageResult> {
    const people = await this.users.list(user.accountId);
    return view(
      'dashboard/views/users',
      {
        title: 'Users',
        notice: noticeFor(notice),
        ...errorModel(error),
        users: people.map((u) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          role: roleOf(u),
          isOwner: u.isOwner,
          pending: !u.hasPassword,
          twoFactorOn: u.twoFactorOn,
          since: show.time(u.createdAt, user.timeZone),
          isYou: u.id === user.userId,
        })),
        invite: { email: typed?.email ?? '', name: typed?.name ?? '', permissions: permissionChoices(typed?.permissions ?? []) },
        everyoneSees: EVERYONE_SEES,
      },
      error?.status ?? 200,
    );
  }

  async invite(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const input = { email: formText(form, 'email'), name: formText(form, 'name'), permissions: formList(form, 'permission') };
    return withFormErrors<PageResult>(
      async () => {
        await this.users.invite(user, input);
        return redirectTo(withNotice(PAGES.users.path, 'invited'));
      },
      (error) => this.page(user, undefined, error, input),
    );
  }

  async editPage(user: DashboardUser, id: string, error?: FormError): Promise<PageResult> {
    const target = await this.users.get(user.accountId, userIdOf(id));
    return view(
      'dashboard/views/user-edit',
      {
        title: `User ${target.email}`,
        ...errorModel(error),
        target: { id: target.id, email: target.email, name: target.name, isOwner: target.isOwner, pending: !target.hasPassword, role: roleOf(target) },
        twoFactorOn: await this.twoFactor.isEnabled(target.id),
        permissions: permissionChoices(target.permissions),
        everyoneSees: EVERYONE_SEES,
      },
      error?.status ?? 200,
    );
  }

  async savePermissions(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const userId = userIdOf(id);
    return withFormErrors<PageResult>(
      async () => {
        await this.users.setPermissions(user, userId, formList(form, 'permission'));
        return redirectTo(withNotice(PAGES.users.path, 'permissions_saved'));
      },
      (error) => this.editPage(user, id, error),
    );
  }

  /** The owner turns off a user's two-factor sign-in (a lost phone); they set it up again. */
  async resetTwoFactor(user: DashboardUser, id: string): Promise<PageResult> {
    const target = await this.users.get(user.accountId, userIdOf(id));
    await this.twoFactor.reset(user, target.id, target.email);
    return redirectTo(withNotice(PAGES.users.path, 'two_factor_reset'));
  }

  async resendInvitation(user: DashboardUser, id: string): Promise<PageResult> {
    await this.users.resendInvitation(user, userIdOf(id));
    return redirectTo(withNotice(PAGES.users.path, 'invitation_resent'));
  }

  async confirmPage(user: DashboardUser, id: string, what: 'remove' | 'transfer'): Promise<PageResult> {
    const target = await this.users.get(user.accountId, userIdOf(id));
    if (what === 'remove' && target.isOwner) throw failure('ownerCannotBeRemoved');
    return view(`dashboard/views/user-${what}`, { title: what === 'remove' ? 'Remove user' : 'Transfer ownership', target: { id: target.id, email: target.email } });
  }

  async remove(user: DashboardUser, id: string): Promise<PageResult> {
    await this.users.remove(user, userIdOf(id));
    return redirectTo(withNotice(PAGES.users.path, 'user_removed'));
  }

  async transferOwnership(user: DashboardUser, id: string): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => {
        await this.users.transferOwnership(user, userIdOf(id));
        return redirectTo(withNotice(PAGES.overview.path, 'ownership_transferred'));
      },
      (error) => this.editPage(user, id, error),
    );
  }
}
