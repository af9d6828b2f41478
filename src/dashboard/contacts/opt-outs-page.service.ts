import { Injectable } from '@nestjs/common';
import { csvField } from '../../common/csv/csv-cell';
import { failure } from '../../common/errors/error-catalogue';
import { normaliseAuMobile } from '../../common/phone';
import { UnitOfWork } from '../../database/unit-of-work';
import { OptOutService } from '../../inbound/opt-out.service';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { fileDownload, PageResult, redirectTo, view } from '../../pages/page-result';
import type { UnsubscribeSource } from '../../unsubscribes/unsubscribe.entity';
import { UnsubscribesService } from '../../unsubscribes/unsubscribes.service';
import { AuditLogService } from '../../users/audit-log.service';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

/** Opt-outs a page shows at once. */
const OPT_OUTS_PER_PAGE = 50;

const SOURCE_LABELS: Record<UnsubscribeSource, string> = {
  reply: 'Replied STOP',
  link: 'Opt-out link',
  api: 'Added by the account (API or dashboard)',
};

/** A number from a path: anything but an Australian mobile is an opt-out that does not exist. */
function numberOf(text: string): string {
  const number = normaliseAuMobile(text);
  if (!number) throw failure('optOutNotFound');
  return number;
}

/**
 * The opt-out list on a page (`manage_contacts`): search, add (every effect of an opt-out: off every
 * list, scheduled messages cancelled with refunds), remove after a confirmation that says what removing
 * means, and a CSV export. Adding and removing are audit-logged in the same transaction.
 */
@Injectable()
export class OptOutsPageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly unsubscribes: UnsubscribesService,
    private readonly optOuts: OptOutService,
    private readonly audit: AuditLogService,
  ) {}

  async list(user: DashboardUser, query: Record<string, unknown>, error?: FormError, typed?: string): Promise<PageResult> {
    const search = typeof query.q === 'string' ? query.q.trim().slice(0, 30) : '';
    const digits = search.replace(/\D/g, '');
    const offset = typeof query.offset === 'string' && /^\d{1,9}$/.test(query.offset) ? Number(query.offset) : 0;
    const rows = await this.unsubscribes.search(user.accountId, digits === '' ? null : digits, OPT_OUTS_PER_PAGE + 1, offset);
    const link = (o: number) => `${PAGES.optOuts.path}?${new URLSearchParams({ ...(search ? { q: search } : {}), offset: String(o) }).toString()}`;
    return view(
      'dashboard/views/opt-outs',
      {
        title: 'Opt-outs',
        notice: noticeFor(query.notice),
        ...errorModel(error),
        search,
        number: typed ?? '',
        rows: rows.slice(0, OPT_OUTS_PER_PAGE).map((r) => ({ number: r.number, source: SOURCE_LABELS[r.source], at: show.time(r.created_at, user.timeZone) })),
        previous: offset > 0 ? link(Math.max(0, offset - OPT_OUTS_PER_PAGE)) : undefined,
        next: rows.length > OPT_OUTS_PER_PAGE ? link(offset + OPT_OUTS_PER_PAGE) : undefined,
      },
      error?.status ?? 200,
    );
  }

  async add(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const typed = formText(form, 'number');
    return withFormErrors<PageResult>(
      async () => {
        if (typed === '') throw failure('required', 'number');
        const number = normaliseAuMobile(typed);
        if (!number) throw failure('invalidPhoneNumber');
        const added = await this.uow.run(async (tx) => {
          const isNew = await this.optOuts.apply(user.accountId, number, 'api', tx, { userId: user.userId }, 'dashboard');
          if (isNew) await this.audit.record(user, 'optout.added', number, tx);
          return isNew;
        });
        return redirectTo(withNotice(PAGES.optOuts.path, added ? 'optout_added' : 'optout_already'));
      },
      (error) => this.list(user, {}, error, typed),
    );
  }

  async confirmRemove(user: DashboardUser, rawNumber: string): Promise<PageResult> {
    const optOut = await this.unsubscribes.find(user.accountId, numberOf(rawNumber));
    if (!optOut) throw failure('optOutNotFound');
    return view('dashboard/views/opt-out-remove', {
      title: 'Remove an opt-out',
      number: optOut.number,
      source: SOURCE_LABELS[optOut.source],
      at: show.time(optOut.created_at, user.timeZone),
      byRecipient: optOut.source !== 'api',
    });
  }

  async remove(user: DashboardUser, rawNumber: string): Promise<PageResult> {
    const number = numberOf(rawNumber);
    const removed = await this.uow.run(async (tx) => {
      const gone = await this.unsubscribes.resubscribe(user.accountId, number, tx, { source: 'dashboard', evidence: { userId: user.userId } });
      if (gone) await this.audit.record(user, 'optout.removed', number, tx);
      return gone;
    });
    if (!removed) throw failure('optOutNotFound');
    return redirectTo(withNotice(PAGES.optOuts.path, 'optout_removed'));
  }

  /** Every opt-out as CSV: number, how, when (in the account's zone, named in the header, as every export writes times). */
  async export(user: DashboardUser): Promise<PageResult> {
    const rows = await this.unsubscribes.all(user.accountId);
    const lines = [`number,source,unsubscribed_at (${user.timeZone})`, ...rows.map((r) => [r.number, r.source, show.time(r.created_at, user.timeZone)].map(csvField).join(','))];
    return fileDownload('text/csv; charset=utf-8', 'opt-outs.csv', Buffer.from(`${lines.join('\r\n')}\r\n`));
  }
}
