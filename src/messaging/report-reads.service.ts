import { Injectable } from '@nestjs/common';
import { LinkClicksService } from '../links/link-clicks.service';
import { ReportDayRow, ReportPeriod, ReportReadsRepository } from './report-reads.repository';

export interface AccountReport {
  days: ReportDayRow[];
  /** Clicks by the day they were clicked (not the day their message was sent). */
  clicks: Array<{ day: string; clicks: number }>;
  failures: Array<{ reason: string; messages: number }>;
}

/** An account's messaging over a period, for the reports page (readable by every user of the account). */
@Injectable()
export class ReportReadsService {
  constructor(
    private readonly reports: ReportReadsRepository,
    private readonly linkClicks: LinkClicksService,
  ) {}

  async report(accountId: number, period: ReportPeriod): Promise<AccountReport> {
    const [days, clicks, failures] = await Promise.all([
      this.reports.days(accountId, period),
      this.linkClicks.clicksByDay(accountId, period),
      this.reports.failureReasons(accountId, period),
    ]);
    return { days, clicks, failures };
  }
}
