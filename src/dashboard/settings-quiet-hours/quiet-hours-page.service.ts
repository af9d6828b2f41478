import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { CONTACT_TEXT_FIELDS } from '../../contacts/contact-fields';
import { UnitOfWork } from '../../database/unit-of-work';
import { formList, formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { QuietHoursService, QuietHoursView } from '../../quiet-hours/quiet-hours.service';
import { AuditLogService } from '../../users/audit-log.service';
import { can } from '../../users/permissions';
import { CONTACT_FIELD_LABELS } from '../contacts/contact-form';
import type { DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';
import { TIME_ZONE_LABELS } from '../settings-time-zone/time-zone-labels';

const DAYS = [
  { value: 'mon', label: 'Monday' },
  { value: 'tue', label: 'Tuesday' },
  { value: 'wed', label: 'Wednesday' },
  { value: 'thu', label: 'Thursday' },
  { value: 'fri', label: 'Friday' },
  { value: 'sat', label: 'Saturday' },
  { value: 'sun', label: 'Sunday' },
] as const;

/** What the form shows: the saved setting, or what was typed when a save was refused. */
interface Shown {
  enabled: boolean;
  allowed_from: string;
  allowed_until: string;
  days: string[];
  skip_dates: string;
  zone_field: string;
}

const shownOf = (v: QuietHoursView): Shown => ({ ...v, skip_dates: v.skip_dates.join('\n'), zone_field: v.zone_field ?? '' });

/** A summary line of the setting, in words. */
function summaryOf(v: QuietHoursView, accountZone: string): string {
  if (!v.enabled) return 'Off: messages go whenever they are sent or scheduled.';
  const days = DAYS.filter((d) => v.days.includes(d.value)).map((d) => d.label);
  const zone = v.zone_field ? `the zone in each contact’s ${CONTACT_FIELD_LABELS[v.zone_field as keyof typeof CONTACT_FIELD_LABELS]}, else ${accountZone}` : accountZone;
  const skipped = v.skip_dates.length === 0 ? '' : `, except ${v.skip_dates.length} date(s)`;
  return `On: ${v.allowed_from} to ${v.allowed_until} on ${days.join(', ')}${skipped}, in ${zone}.`;
}

/**
 * Settings › Quiet hours (`manage_settings`): the account's sending window, saved through the API's own
 * service (its checks and texts) and audit-logged in the same transaction.
 */
@Injectable()
export class QuietHoursPageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly quietHours: QuietHoursService,
    private readonly audit: AuditLogService,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: FormError, typed?: Shown): Promise<PageResult> {
    if (!can(user, 'manage_settings')) throw failure('permissionRequired');
    const saved = await this.quietHours.get(user.accountId);
    const shown = typed ?? shownOf(saved);
    const accountZone = TIME_ZONE_LABELS[user.timeZone as keyof typeof TIME_ZONE_LABELS] ?? user.timeZone;
    return view(
      'dashboard/views/settings-quiet-hours',
      {
        title: 'Quiet hours',
        notice: noticeFor(notice),
        ...errorModel(error),
        summary: summaryOf(saved, accountZone),
        accountZone,
        shown,
        days: DAYS.map((d) => ({ ...d, checked: shown.days.includes(d.value) })),
        zoneFields: CONTACT_TEXT_FIELDS.map((f) => ({ value: f, label: CONTACT_FIELD_LABELS[f], selected: f === shown.zone_field })),
      },
      error?.status ?? 200,
    );
  }

  async update(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    if (!can(user, 'manage_settings')) throw failure('permissionRequired');
    const typed: Shown = {
      enabled: formText(form, 'enabled') === 'on',
      allowed_from: formText(form, 'allowed_from'),
      allowed_until: formText(form, 'allowed_until'),
      days: formList(form, 'days'),
      skip_dates: formText(form, 'skip_dates'),
      zone_field: formText(form, 'zone_field'),
    };
    return withFormErrors<PageResult>(
      async () => {
        if (typed.allowed_from === '') throw failure('required', 'allowed_from');
        if (typed.allowed_until === '') throw failure('required', 'allowed_until');
        await this.uow.run(async (tx) => {
          const saved = await this.quietHours.update(
            user.accountId,
            {
              enabled: typed.enabled,
              allowedFrom: typed.allowed_from,
              allowedUntil: typed.allowed_until,
              days: typed.days,
              // One date a line (commas and spaces also part them).
              skipDates: typed.skip_dates.split(/[\s,]+/).filter((d) => d !== ''),
              zoneField: typed.zone_field,
            },
            tx,
          );
          await this.audit.record(user, 'account.quiet_hours_changed', summaryOf(saved, user.timeZone), tx);
        });
        return redirectTo(withNotice(PAGES.quietHours.path, 'quiet_hours_saved'));
      },
      (error) => this.page(user, undefined, error, typed),
    );
  }
}
