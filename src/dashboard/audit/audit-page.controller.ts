import { Get, Injectable, Query } from '@nestjs/common';
import { AuditLogService } from '../../users/audit-log.service';
import { PageResult, view } from '../../pages/page-result';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { pager, show } from '../format';
import { PAGES } from '../navigation';
import { AUDIT_LABELS } from './audit-labels';

export const AUDIT_PER_PAGE = 50;

/** The audit log (owner only): who did what, when, from which address, newest first. */
@Injectable()
export class AuditPageService {
  constructor(private readonly audit: AuditLogService) {}

  async page(user: DashboardUser, offsetText: unknown): Promise<PageResult> {
    const offset = typeof offsetText === 'string' && /^\d{1,9}$/.test(offsetText) ? Number(offsetText) : 0;
    const page = { limit: AUDIT_PER_PAGE, offset };
    const { total, rows } = await this.audit.page(user.accountId, page);
    return view('dashboard/views/audit', {
      title: 'Audit log',
      entries: rows.map((r) => ({
        when: show.time(r.created_at, user.timeZone),
        actor: r.actor,
        action: AUDIT_LABELS[r.action as keyof typeof AUDIT_LABELS] ?? r.action,
        detail: r.detail,
        ip: r.ip,
      })),
      pager: pager(PAGES.audit.path, {}, page, total, rows.length),
    });
  }
}

@DashboardController(PAGES.audit)
export class AuditPageController {
  constructor(private readonly audit: AuditPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('offset') offset: unknown) {
    return this.audit.page(user, offset);
  }
}
