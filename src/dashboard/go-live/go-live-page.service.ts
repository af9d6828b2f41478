import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { failure } from '../../common/errors/error-catalogue';
import { MAX_INTENDED_USE_LENGTH, MAX_LIVE_BUSINESS_NAME_LENGTH } from '../../live-requests/live-request-input';
import type { LiveRequestRecord } from '../../live-requests/live-requests.repository';
import { LiveRequestsService } from '../../live-requests/live-requests.service';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

/** `51 824 753 556`, as the ATO writes an ABN. */
const formatAbn = (abn: string) => abn.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4');

interface Typed {
  businessName: string;
  abn: string;
  website: string;
  intendedUse: string;
}

/** The Go live page: the form while the account is a test account with no request waiting, and the request's state. */
@Injectable()
export class GoLivePageService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly requests: LiveRequestsService,
  ) {}

  async page(user: DashboardUser, notice?: unknown, typed?: Typed, error?: FormError): Promise<PageResult> {
    if (!user.isOwner) throw failure('ownerOnly');
    const [account, latest] = await Promise.all([this.accounts.get(user.accountId), this.requests.latest(user.accountId)]);
    const pending = latest?.state === 'pending';
    const declined = latest?.state === 'declined';
    return view(
      'dashboard/views/go-live',
      {
        title: 'Go live',
        notice: noticeFor(notice),
        ...errorModel(error),
        isTest: account.isTest,
        request: latest ? this.requestView(latest, user.timeZone) : null,
        pending,
        declined,
        approved: latest?.state === 'approved',
        // A test account may ask when nothing waits; a declined request may be asked again, fixed.
        showForm: account.isTest && !pending,
        form:
          typed ??
          (declined
            ? { businessName: latest.businessName, abn: formatAbn(latest.abn), website: latest.website, intendedUse: latest.intendedUse }
            : { businessName: account.name, abn: '', website: '', intendedUse: '' }),
        maxBusinessName: MAX_LIVE_BUSINESS_NAME_LENGTH,
        maxUse: MAX_INTENDED_USE_LENGTH,
      },
      error?.status ?? 200,
    );
  }

  async request(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    if (!user.isOwner) throw failure('ownerOnly');
    const typed: Typed = {
      businessName: formText(form, 'business_name'),
      abn: formText(form, 'abn'),
      website: formText(form, 'website'),
      intendedUse: formText(form, 'intended_use'),
    };
    return withFormErrors<PageResult>(
      async () => {
        await this.requests.submit(user, typed);
        return redirectTo(withNotice(PAGES.goLive.path, 'live_requested'));
      },
      (error) => this.page(user, undefined, typed, error),
    );
  }

  private requestView(r: LiveRequestRecord, timeZone: string) {
    return {
      id: r.id,
      state: r.state,
      businessName: r.businessName,
      abn: formatAbn(r.abn),
      website: r.website,
      intendedUse: r.intendedUse,
      declineReason: r.declineReason,
      startingCredits: r.startingCredits ? show.credits(r.startingCredits) : null,
      submittedAt: show.time(r.submittedAt, timeZone),
      decidedAt: r.decidedAt ? show.time(r.decidedAt, timeZone) : null,
    };
  }
}
