import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { MessageExportService } from '../../messaging/message-export.service';
import { ReportReadsService } from '../../messaging/report-reads.service';
import { errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, streamDownload, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { show, zoneLabel } from '../format';
import { ChosenPeriod, readReportPeriod } from './report-period';
import { Bar, barChart } from './svg-chart';

/** A failure reason's label under its bar (the table beside the chart gives it in full). */
const REASON_LABEL_CHARS = 16;

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

/** Reports (every user of the account): charts of a period drawn on the server, each with its data table, and the CSV export. */
@Injectable()
export class ReportsPageService {
  constructor(
    private readonly reports: ReportReadsService,
    private readonly exports: MessageExportService,
    private readonly clock: Clock,
  ) {}

  async page(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    const typed = { from: typeof query.from === 'string' ? query.from : '', to: typeof query.to === 'string' ? query.to : '' };
    return withFormErrors<PageResult>(
      async () => {
        const period = readReportPeriod(query, user.timeZone, this.clock.now());
        return view('dashboard/views/reports', { title: 'Reports', zone: zoneLabel(user.timeZone), ...(await this.charts(user, period)) });
      },
      (error) => view('dashboard/views/reports', { title: 'Reports', zone: zoneLabel(user.timeZone), period: typed, charts: [], ...errorModel(error) }, error.status),
    );
  }

  /** The message history of the period as CSV, streamed (any size; times in the account's zone). */
  async export(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    const period = readReportPeriod(query, user.timeZone, this.clock.now());
    return streamDownload(
      'text/csv; charset=utf-8',
      `messages-${period.fromDay}-to-${period.toDay}.csv`,
      this.exports.csv(user.accountId, { from: period.from, toExclusive: period.toExclusive }, user.timeZone),
    );
  }

  private async charts(user: DashboardUser, period: ChosenPeriod) {
    const report = await this.reports.report(user.accountId, { from: period.from, toExclusive: period.toExclusive, timeZone: user.timeZone });
    const byDay = new Map(report.days.map((d) => [d.day, d]));
    const clicksByDay = new Map(report.clicks.map((c) => [c.day, c.clicks]));
    const days = period.days.map((day) => ({ day, label: day.slice(5), row: byDay.get(day), clicks: clicksByDay.get(day) ?? 0 }));
    const totals = report.days.reduce(
      (t, d) => ({ messages: t.messages + d.messages, parts: t.parts + d.parts, delivered: t.delivered + d.delivered, failed: t.failed + d.failed, cost: t.cost + d.cost }),
      { messages: 0, parts: 0, delivered: 0, failed: 0, cost: 0 },
    );
    const clicks = report.clicks.reduce((sum, c) => sum + c.clicks, 0);
    const span = `from ${period.fromDay} to ${period.toDay}`;
    const daily = (id: string, title: string, description: string, column: string, value: (d: (typeof days)[number]) => { value: number; shown: string }, max?: number) => {
      const bars: Bar[] = days.map((d) => ({ label: d.label, ...value(d) }));
      return {
        id,
        title,
        chart: barChart({ id, title, description, bars, max }),
        column,
        rows: days.map((d, i) => ({ label: d.day, shown: bars[i].shown })),
      };
    };
    const charts = [
      daily('messages', 'Messages per day', `${totals.messages} messages ${span}.`, 'Messages', (d) => ({ value: d.row?.messages ?? 0, shown: String(d.row?.messages ?? 0) })),
      daily('parts', 'Parts per day', `${totals.parts} parts ${span}.`, 'Parts', (d) => ({ value: d.row?.parts ?? 0, shown: String(d.row?.parts ?? 0) })),
      daily(
        'delivery',
        'Delivery rate per day',
        `${percent(totals.delivered, totals.delivered + totals.failed)}% of the messages that reached an outcome ${span} were delivered.`,
        'Delivered',
        (d) => {
          const settled = (d.row?.delivered ?? 0) + (d.row?.failed ?? 0);
          return { value: percent(d.row?.delivered ?? 0, settled), shown: settled === 0 ? '–' : `${percent(d.row?.delivered ?? 0, settled)}%` };
        },
        100,
      ),
      daily('cost', 'Cost per day (credits)', `${show.credits(totals.cost)} credits ${span}.`, 'Credits', (d) => ({
        value: (d.row?.cost ?? 0) / 100,
        shown: show.credits(d.row?.cost ?? 0),
      })),
      daily('clicks', 'Link clicks per day', `${clicks} link clicks ${span}, counted on the day they were clicked.`, 'Clicks', (d) => ({
        value: d.clicks,
        shown: String(d.clicks),
      })),
    ];
    const failureBars: Bar[] = report.failures.map((f) => ({
      label: f.reason.length > REASON_LABEL_CHARS ? `${f.reason.slice(0, REASON_LABEL_CHARS - 1)}…` : f.reason,
      value: f.messages,
      shown: String(f.messages),
    }));
    charts.push({
      id: 'failures',
      title: 'Failures by reason',
      chart: barChart({ id: 'failures', title: 'Failures by reason', description: `${totals.failed} failed messages ${span}, by reason.`, bars: failureBars }),
      column: 'Messages',
      rows: report.failures.map((f) => ({ label: f.reason, shown: String(f.messages) })),
    });
    return {
      period: { from: period.fromDay, to: period.toDay },
      totals: { ...totals, cost: show.credits(totals.cost), clicks },
      exportHref: `/reports/export.csv?from=${period.fromDay}&to=${period.toDay}`,
      charts,
    };
  }
}
