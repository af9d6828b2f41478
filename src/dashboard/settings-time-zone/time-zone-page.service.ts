import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { failure } from '../../common/errors/error-catalogue';
import { isAustralianTimeZone } from '../../common/time/australian-time-zones';
import { Clock } from '../../common/time/clock';
import { UnitOfWork } from '../../database/unit-of-work';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { AuditLogService } from '../../users/audit-log.service';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';
import { TIME_ZONE_CHOICES, TIME_ZONE_LABELS } from './time-zone-labels';

/** Settings › Time zone: the zone every page and export of the account shows time in (the API keeps UTC). */
@Injectable()
export class TimeZonePageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: FormError): Promise<PageResult> {
    if (!can(user, 'manage_settings')) throw failure('permissionRequired');
    const { timeZone } = await this.accounts.get(user.accountId);
    return view(
      'dashboard/views/settings-time-zone',
      {
        title: 'Time zone',
        notice: noticeFor(notice),
        ...errorModel(error),
        current: TIME_ZONE_LABELS[timeZone as keyof typeof TIME_ZONE_LABELS] ?? timeZone,
        now: show.time(this.clock.now(), timeZone),
        zones: TIME_ZONE_CHOICES.map((choice) => ({ ...choice, selected: choice.zone === timeZone })),
      },
      error?.status ?? 200,
    );
  }

  async update(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    if (!can(user, 'manage_settings')) throw failure('permissionRequired');
    const chosen = formText(form, 'time_zone');
    return withFormErrors<PageResult>(
      async () => {
        if (!isAustralianTimeZone(chosen)) throw failure('timeZoneInvalid');
        await this.uow.run(async (tx) => {
          const before = (await this.accounts.get(user.accountId, tx)).timeZone;
          await this.accounts.setTimeZone(user.accountId, chosen, tx);
          await this.audit.record(user, 'account.time_zone_changed', `${before} → ${chosen}`, tx);
        });
        return redirectTo(withNotice(PAGES.timeZone.path, 'time_zone_saved'));
      },
      (error) => this.page(user, undefined, error),
    );
  }
}
