import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { failure } from '../../common/errors/error-catalogue';
import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../database/unit-of-work';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { AuditLogService } from '../../users/audit-log.service';
import { SendingBrakeService } from '../../sending-brake/sending-brake.service';
import { UsersService } from '../../users/users.service';
import { show } from '../format';
import type { DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

/** Settings › Security (owner only): whether every user must sign in with two factors, and the sending brake's state and release. */
@Injectable()
export class SecurityPageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly audit: AuditLogService,
    private readonly brake: SendingBrakeService,
    private readonly config: AppConfig,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: FormError): Promise<PageResult> {
    const [account, people, brake] = await Promise.all([this.accounts.get(user.accountId), this.users.list(user.accountId), this.brake.state(user.accountId)]);
    return view(
      'dashboard/views/settings-security',
      {
        title: 'Security',
        notice: noticeFor(notice),
        ...errorModel(error),
        required: account.requireTwoFactor,
        without: people.filter((p) => !p.twoFactorOn).map((p) => ({ email: p.email, isYou: p.id === user.userId })),
        youHaveIt: people.some((p) => p.id === user.userId && p.twoFactorOn),
        isTest: account.isTest,
        brake: brake && {
          paused: brake.pausedAt !== null,
          pausedAt: brake.pausedAt && show.time(brake.pausedAt, user.timeZone),
          pausedVolume: brake.pausedVolume,
          pausedLimit: brake.pausedLimit,
          lastHour: Math.round(brake.lastHour),
          limit: Math.floor(brake.limit),
        },
        allowance: this.config.sendingBrakeAllowance,
        multiplier: this.config.sendingBrakeMultiplier,
      },
      error?.status ?? 200,
    );
  }

  /** The owner lets a paused account send again (the volume that paused it counts as normal from now on). */
  async releaseBrake(user: DashboardUser): Promise<PageResult> {
    const { released } = await this.brake.release(user);
    return redirectTo(released ? withNotice(PAGES.security.path, 'brake_released') : PAGES.security.path);
  }

  /** The switch: on only once the owner signs in with two factors themselves (else the next page would hold them too). */
  async setRequired(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const required = formText(form, 'require_two_factor') === 'on';
    return withFormErrors<PageResult>(
      async () => {
        const changed = await this.uow.run(async (tx) => {
          if (required && !(await this.users.list(user.accountId)).some((p) => p.id === user.userId && p.twoFactorOn)) throw failure('twoFactorRequireNeedsYours');
          const changed = await this.accounts.setRequireTwoFactor(user.accountId, required, tx);
          if (changed) await this.audit.record(user, required ? 'two_factor.required' : 'two_factor.not_required', '', tx);
          return changed;
        });
        return redirectTo(changed || required ? withNotice(PAGES.security.path, required ? 'two_factor_required' : 'two_factor_optional') : PAGES.security.path);
      },
      (error) => this.page(user, undefined, error),
    );
  }
}
