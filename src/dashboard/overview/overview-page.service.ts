import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
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
  ) {}

  async page(user: DashboardUser): Promise<PageResult> {
    const [account, sends] = await Promise.all([this.accounts.get(user.accountId), this.activity.recentSends(user.accountId)]);
    return view('dashboard/views/overview', {
      title: 'Overview',
      accountName: account.name,
      isTest: account.isTest,
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
