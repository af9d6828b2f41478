import { Injectable } from '@nestjs/common';
import { CreditsService } from '../../billing/credits.service';
import type { StatementRow } from '../../billing/ledger.repository';
import { csvField, csvText } from '../../common/csv/csv-cell';
import { failure } from '../../common/errors/error-catalogue';
import { fileDownload, PageResult, view } from '../../pages/page-result';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { keysetCursorOf, keysetPager } from '../keyset-pager';
import { PAGES } from '../navigation';

const PAGE_SIZE = 50;
/** The CSV holds the newest rows up to this many (a year of daily sends many times over); the page pages through all. */
export const STATEMENT_CSV_MAX_ROWS = 100_000;

/** What a ledger row is, in words: purchases and grants, a send's debit, a refund. */
function describe(row: StatementRow): string {
  if (row.reference.startsWith('purchase:')) return `Credit purchase (${row.reference.replace('purchase:', 'purchase ')})`;
  if (row.kind === 'debit') return row.reference.startsWith('send:') ? `Send ${row.reference.slice(5)}${row.reason ? ` (${row.reason})` : ''}` : row.reason;
  if (row.kind === 'refund') return `Refund${row.reason ? `: ${row.reason}` : ''}`;
  return row.reason || 'Grant';
}

/** Billing › Statement: the account's ledger in its time zone, paged, and as CSV. */
@Injectable()
export class StatementPageService {
  constructor(private readonly credits: CreditsService) {}

  async page(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    if (!can(user, 'manage_billing')) throw failure('permissionRequired');
    const page = await this.credits.statement(user.accountId, keysetCursorOf(query), PAGE_SIZE);
    return view('dashboard/views/statement', {
      title: 'Statement',
      rows: page.rows.map((r) => ({ when: show.time(r.createdAt, user.timeZone), kind: r.kind, what: describe(r), amount: show.credits(r.amount) })),
      pager: keysetPager(`${PAGES.billing.path}/statement`, {}, page),
    });
  }

  async csv(user: DashboardUser): Promise<PageResult> {
    if (!can(user, 'manage_billing')) throw failure('permissionRequired');
    const page = await this.credits.statement(user.accountId, { direction: 'older' }, STATEMENT_CSV_MAX_ROWS);
    const lines = [
      `date (${user.timeZone}),kind,description,credits,reference`,
      ...page.rows.map((r) => [csvField(show.time(r.createdAt, user.timeZone)), r.kind, csvText(describe(r)), csvField(show.credits(r.amount)), csvText(r.reference)].join(',')),
    ];
    return fileDownload('text/csv; charset=utf-8', 'statement.csv', Buffer.from(`${lines.join('\r\n')}\r\n`));
  }
}
