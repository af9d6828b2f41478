import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { UnitOfWork } from '../../database/unit-of-work';
import { formText, type FormBody } from '../../pages/form-body';
import { withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import type { Actor } from '../../users/actor';
import { AuditLogService } from '../../users/audit-log.service';
import { can } from '../../users/permissions';
import { WebhookSettingsService } from '../../webhooks/webhook-settings.service';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

export const RECENT_DELIVERIES = 20;

function requireSettings(actor: Actor): void {
  if (!can(actor, 'manage_settings')) throw failure('permissionRequired');
}

/** Settings > Webhooks: the two URLs, the signing secret (rotated, shown once), the latest delivery attempts. */
@Injectable()
export class WebhooksPageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly settings: WebhookSettingsService,
    private readonly audit: AuditLogService,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: { message: string; status: number }, typed?: { inbound: string; status: string }): Promise<PageResult> {
    requireSettings(user);
    const [current, deliveries] = await Promise.all([
      this.settings.get(user.accountId),
      this.settings.deliveries(user.accountId, undefined, { limit: RECENT_DELIVERIES, offset: 0 }),
    ]);
    return view(
      'dashboard/views/settings-webhooks',
      {
        title: 'Webhooks',
        notice: noticeFor(notice),
        error: error?.message,
        urls: typed ?? current.webhooks,
        hasSecret: current.has_signing_secret,
        deliveries: deliveries.results.map((d) => ({ ...d, createdAt: show.apiTime(d.created_at, user.timeZone), result: d.delivered ? 'delivered' : 'failed' })),
      },
      error?.status ?? 200,
    );
  }

  async update(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    requireSettings(user);
    const urls = { inbound: formText(form, 'inbound'), status: formText(form, 'status') };
    return withFormErrors<PageResult>(
      async () => {
        await this.settings.update(user.accountId, urls, (write) =>
          this.uow.run(async (tx) => {
            await write(tx);
            await this.audit.record(user, 'webhooks.updated', `status: ${urls.status || 'off'}; inbound: ${urls.inbound || 'off'}`, tx);
          }),
        );
        return redirectTo(withNotice(PAGES.webhooks.path, 'webhooks_saved'));
      },
      (error) => this.page(user, undefined, error, urls),
    );
  }

  /** A new secret, shown on this page only; deliveries are signed with it from now on. */
  async rotateSecret(user: DashboardUser): Promise<PageResult> {
    requireSettings(user);
    const { signing_secret } = await this.uow.run(async (tx) => {
      const secret = await this.settings.rotateSecret(user.accountId, tx);
      await this.audit.record(user, 'webhooks.secret_rotated', '', tx);
      return secret;
    });
    return view('dashboard/views/webhook-secret', { title: 'New signing secret', secret: signing_secret });
  }
}
