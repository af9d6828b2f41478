import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { failure } from '../../common/errors/error-catalogue';
import { CampaignRow } from '../../messaging/campaign-reads.repository';
import { CampaignReadsService } from '../../messaging/campaign-reads.service';
import { CancelMessagesService } from '../../messaging/cancel-messages.service';
import { MessageExportService } from '../../messaging/message-export.service';
import { json, PageResult, redirectTo, streamDownload, view } from '../../pages/page-result';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { show, zoneLabel } from '../format';
import { heldNotice, noticeFor, noticeTone, withNotice } from '../notices';
import { barChart } from '../reports/svg-chart';
import { deliveryTimeline } from './delivery-timeline';

/** The counts a campaign shows, in the order a message moves through them. */
const STAGES = [
  { status: 'scheduled', label: 'Scheduled' },
  { status: 'pending', label: 'Queued' },
  { status: 'sent', label: 'Sent' },
  { status: 'delivered', label: 'Delivered' },
  { status: 'failed', label: 'Failed' },
  { status: 'cancelled', label: 'Cancelled' },
] as const;

const MESSAGE_PREVIEW_CHARS = 80;

/** What followed a send, after its messages' statuses. */
const FOLLOWED = [
  { key: 'clicks', label: 'Link clicks' },
  { key: 'replies', label: 'Replies' },
  { key: 'optOuts', label: 'Opt-outs' },
] as const;

/** What the page's script polls while messages are still moving: the counts, what followed and the delivery rate. */
export function progressOf(row: CampaignRow) {
  const settled = row.counts.delivered + row.counts.failed;
  const live = row.counts.scheduled + row.counts.pending + row.counts.sent;
  return {
    accepted: row.message_count,
    ...row.counts,
    blocked: row.blocked,
    clicks: row.clicks,
    replies: row.replies,
    optOuts: row.opt_outs,
    deliveryRate: settled === 0 ? '' : `${Math.round((row.counts.delivered / settled) * 1000) / 10}%`,
    done: live === 0,
  };
}

@Injectable()
export class CampaignsPageService {
  constructor(
    private readonly campaigns: CampaignReadsService,
    private readonly cancels: CancelMessagesService,
    private readonly exports: MessageExportService,
  ) {}

  async list(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    const before = typeof query.before === 'string' && /^\d{1,15}$/.test(query.before) ? Number(query.before) : null;
    const { rows, nextBefore } = await this.campaigns.page(user.accountId, before);
    return view('dashboard/views/campaigns', {
      title: 'Campaigns',
      canSend: can(user, 'send_messages'),
      rows: rows.map((row) => ({ ...this.summary(row, user), progress: progressOf(row) })),
      next: nextBefore === null ? null : `/campaigns?before=${nextBefore}`,
      first: before === null ? null : '/campaigns',
    });
  }

  async campaign(user: DashboardUser, id: string, query: Record<string, unknown>): Promise<PageResult> {
    const row = await this.campaigns.one(user.accountId, toSendId(id));
    const settled = row.counts.delivered + row.counts.failed > 0;
    const [failures, outcomes] = await Promise.all([
      row.counts.failed > 0 ? this.campaigns.failureReasons(user.accountId, row.id) : [],
      settled ? this.campaigns.outcomesByMinute(user.accountId, row.id) : [],
    ]);
    const progress = progressOf(row);
    const timeline = deliveryTimeline(outcomes, row.message_count, user.timeZone);
    return view('dashboard/views/campaign', {
      title: `Campaign ${row.id}`,
      zone: zoneLabel(user.timeZone),
      notice: query.notice === 'send_held' ? heldNotice(query, (at) => show.time(at, user.timeZone)) : noticeFor(query.notice),
      noticeTone: noticeTone(query.notice),
      campaign: this.summary(row, user),
      progress,
      stages: [...STAGES.map((s) => ({ ...s, count: row.counts[s.status] })), { status: 'blocked', label: 'Blocked', count: row.blocked }],
      followed: FOLLOWED.map((f) => ({ ...f, count: progress[f.key] })),
      failures,
      timeline: timeline && {
        ...timeline,
        chart: barChart({
          id: 'delivery-over-time',
          title: 'Delivered over time',
          description: `${progress.delivered} of ${progress.accepted} messages delivered (${timeline.rows[timeline.rows.length - 1].deliveredByThen}); one bar per ${timeline.interval}, each the share delivered by its end.`,
          bars: timeline.bars,
          max: 100,
        }),
      },
      refunded: row.counts.cancelled > 0 ? (user.accountIsTest ? 'nothing (test accounts are not charged)' : `${show.credits(row.cancelled_cost)} credits`) : '',
      canCancel: row.counts.scheduled > 0 && can(user, 'send_messages'),
    });
  }

  async progress(user: DashboardUser, id: string): Promise<PageResult> {
    return json(progressOf(await this.campaigns.one(user.accountId, toSendId(id))));
  }

  async export(user: DashboardUser, id: string): Promise<PageResult> {
    const row = await this.campaigns.one(user.accountId, toSendId(id));
    return streamDownload('text/csv; charset=utf-8', `campaign-${row.id}.csv`, this.exports.csv(user.accountId, { sendId: row.id }, user.timeZone));
  }

  /** Cancels what is still scheduled (the API's cancel by send_id: refunded in the same transaction). */
  async cancel(user: DashboardUser, id: string): Promise<PageResult> {
    if (!can(user, 'send_messages')) throw failure('permissionRequired');
    const row = await this.campaigns.one(user.accountId, toSendId(id));
    try {
      await this.cancels.cancel(user.accountId, { sendId: row.id });
    } catch (err) {
      // Nothing left to cancel (it all went meanwhile): the page shows where it stands.
      if (err instanceof DomainError && err.condition === 'noScheduledForSend') return redirectTo(withNotice(`/campaigns/${row.id}`, 'nothing_to_cancel'));
      throw err;
    }
    return redirectTo(withNotice(`/campaigns/${row.id}`, 'campaign_cancelled'));
  }

  private summary(row: CampaignRow, user: DashboardUser) {
    const body = row.body ?? '';
    return {
      id: row.id,
      to: row.kind === 'list' ? `List ${row.list_name ?? '(deleted)'}` : `${row.message_count} ${row.message_count === 1 ? 'number' : 'numbers'}`,
      sender: row.sender ?? '',
      message: body,
      messageShort: body.length > MESSAGE_PREVIEW_CHARS ? `${body.slice(0, MESSAGE_PREVIEW_CHARS - 1)}…` : body,
      createdAt: show.time(row.created_at, user.timeZone),
      scheduledFor: show.time(row.scheduled_for, user.timeZone),
      staggerMinutes: row.stagger_minutes,
      sentBy: row.sent_by ?? 'the API',
      messages: row.message_count,
      cost: show.credits(row.total_cost),
    };
  }
}

function toSendId(id: string): number {
  return /^\d{1,15}$/.test(id) ? Number(id) : 0;
}
