import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { UnitOfWork } from '../../database/unit-of-work';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import type { Actor } from '../../users/actor';
import { AuditLogService } from '../../users/audit-log.service';
import { can } from '../../users/permissions';
import { WebhookSettingsService } from '../../webhooks/webhook-settings.service';
import { WebhookToolsService } from '../../webhooks/webhook-tools.service';
import type { AttemptFilter, WebhookKind } from '../../webhooks/webhooks.repository';
import { formatUtc } from '../../common/time/format';
import { addDays, startOfLocalDay } from '../../common/time/local-time';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { keysetCursorOf, keysetPager } from '../keyset-pager';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

export const DELIVERIES_PER_PAGE = 20;

const EVENTS: Record<string, WebhookKind> = { status: 'status', inbound: 'inbound' };
const RESULTS: Record<string, boolean> = { delivered: true, failed: false };

/** The attempt list's filters from the page's query; a value the page does not offer shows everything. */
export function attemptFilterOf(query: Record<string, unknown>): { filter: AttemptFilter; shown: { event: string; result: string } } {
  const event = typeof query.event === 'string' && query.event in EVENTS ? query.event : '';
  const result = typeof query.result === 'string' && query.result in RESULTS ? query.result : '';
  return { filter: { kind: event ? EVENTS[event] : undefined, delivered: result ? RESULTS[result] : undefined }, shown: { event, result } };
}

function requireSettings(actor: Actor): void {
  if (!can(actor, 'manage_settings')) throw failure('permissionRequired');
}

/** Settings > Webhooks: the two URLs, the signing secret (rotated, shown once), its delivery attempts (filtered, paged). */
@Injectable()
export class WebhooksPageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly settings: WebhookSettingsService,
    private readonly tools: WebhookToolsService,
    private readonly audit: AuditLogService,
  ) {}

  async page(user: DashboardUser, query: Record<string, unknown> = {}, error?: FormError, typed?: { inbound: string; status: string }): Promise<PageResult> {
    requireSettings(user);
    const { filter, shown } = attemptFilterOf(query);
    const [current, deliveries] = await Promise.all([
      this.settings.get(user.accountId),
      this.settings.attemptsPage(user.accountId, filter, keysetCursorOf(query), DELIVERIES_PER_PAGE),
    ]);
    return view(
      'dashboard/views/settings-webhooks',
      {
        title: 'Webhooks',
        notice: noticeFor(query.notice),
        ...errorModel(error),
        urls: typed ?? current.webhooks,
        hasSecret: current.has_signing_secret,
        filters: shown,
        filtered: shown.event !== '' || shown.result !== '',
        deliveries: deliveries.rows.map((d) => ({ ...d, createdAt: show.apiTime(d.created_at, user.timeZone), result: d.delivered ? 'delivered' : 'failed' })),
        pager: keysetPager(PAGES.webhooks.path, shown, deliveries),
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

  /** A signed sample to the status or inbound URL, delivered (and logged) like any other event. */
  async sendTestEvent(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    requireSettings(user);
    const event = formText(form, 'event') || 'status';
    return withFormErrors<PageResult>(
      async () => {
        const { event_id } = await this.tools.sendTestEvent(user.accountId, event);
        await this.audit.record(user, 'webhooks.test_event_sent', `${event} event #${event_id}`);
        return redirectTo(withNotice(PAGES.webhooks.path, 'webhook_test_sent'));
      },
      (error) => this.page(user, undefined, error),
    );
  }

  /** One more attempt for one failed event (its row's button), or for every failed event of some days on the account's calendar. */
  async redeliver(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    requireSettings(user);
    const eventId = formText(form, 'event_id');
    return withFormErrors<PageResult>(
      async () => {
        const input = /^\d{1,15}$/.test(eventId) ? { event_id: Number(eventId) } : daysToPeriod(formText(form, 'from'), formText(form, 'to'), user.timeZone);
        const { redelivered } = await this.tools.redeliver(user.accountId, input);
        const detail = 'event_id' in input ? `event #${input.event_id}` : `${redelivered} failed events from ${formText(form, 'from')} to ${formText(form, 'to')}`;
        if (redelivered > 0) await this.audit.record(user, 'webhooks.redelivered', detail);
        return redirectTo(withNotice(PAGES.webhooks.path, redelivered > 0 ? 'webhooks_redelivered' : 'webhooks_none_to_redeliver'));
      },
      (error) => this.page(user, undefined, error),
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

/** Whole days on the account's calendar, first to last inclusive, as the UTC period the redelivery takes. */
export function daysToPeriod(first: string, last: string, timeZone: string): { from: string; to: string } {
  const from = /^\d{4}-\d{2}-\d{2}$/.test(first) ? startOfLocalDay(first, timeZone) : null;
  const lastStart = /^\d{4}-\d{2}-\d{2}$/.test(last) ? startOfLocalDay(last, timeZone) : null;
  const to = lastStart ? startOfLocalDay(addDays(last, 1), timeZone) : null;
  if (!from || !to || from >= to) throw failure('redeliveryDaysInvalid');
  return { from: formatUtc(from), to: formatUtc(to) };
}
