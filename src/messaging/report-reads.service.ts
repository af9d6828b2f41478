import { Injectable } from '@nestjs/common';
import { ReportDayRow, ReportPeriod, ReportReadsRepository } from './report-reads.repository';

export interface AccountReport {
  days: ReportDayRow[];
  clicks: Array<{ day: string; clicks: number }>;
  failures: Array<{ reason: string; messages: number }>;
}

/** An account's messaging over a period, for the reports page (readable by every user of the account). */
@Injectable()
export class ReportReadsService {
  constructor(private readonly reports: ReportReadsRepository) {}

  async report(accountId: number, period: ReportPeriod): Promise<AccountReport> {
    const [days, clicks, failures] = await Promise.all([
      this.reports.days(accountId, period),
      this.reports.clicksBySendDay(accountId, period),
      this.reports.failureReasons(accountId, period),
    ]);
    return { days, clicks, failures };
  }
}
