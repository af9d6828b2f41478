import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { ApiKeysService } from '../../accounts/api-keys.service';
import { can } from '../../users/permissions';
import { noticeFor } from '../notices';
import { MessageActivityService } from '../../messaging/message-activity.service';
import { MESSAGE_STATUSES } from '../../messaging/message.entity';
import { PageResult, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';

@Injectable()
export class OverviewPageService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly activity: MessageActivityService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async page(user: DashboardUser, notice?: unknown): Promise<PageResult> {
    const [account, sends, keys] = await Promise.all([this.accounts.get(user.accountId), this.activity.recentSends(user.accountId), this.apiKeys.listActive(user.accountId)]);
    return view('dashboard/views/overview', {
      title: 'Overview',
      notice: noticeFor(notice),
      // A new account (a sign-up) has no key yet: the overview offers the first one to whoever may create keys.
      offerFirstKey: keys.length === 0 && can(user, 'manage_api_keys'),
      accountName: account.name,
      isTest: account.isTest,
      // Going live commits the business: the owner asks (navigation.ts: goLive).
      offerGoLive: account.isTest && user.isOwner,
      balance: show.credits(account.creditBalance),
      sends: sends.map((s) => ({
        id: s.id,
        kind: s.kind === 'list' ? 'List send' : 'Batch',
        createdAt: show.time(s.created_at, user.timeZone),
        scheduledFor: show.time(s.scheduled_for, user.timeZone),
        messages: s.message_count,
        cost: show.credits(s.total_cost),
        counts: MESSAGE_STATUSES.filter((status) => s.counts[status] > 0).map((status) => ({ status, count: s.counts[status] })),
      })),
    });
  }
}
