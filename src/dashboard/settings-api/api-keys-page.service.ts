import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { formText, type FormBody } from '../../pages/form-body';
import { withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';
import { ApiKeyActionsService, MAX_ACTIVE_API_KEYS, parseDailyLimit } from './api-key-actions.service';

const VIEW = 'dashboard/views/settings-api';

/** A key id from a path: anything but a positive integer is a key that does not exist. */
export function keyIdOf(text: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw failure('apiKeyNotFoundOnAccount');
  return Number(text);
}

/** Settings > API: the keys, their purchases and limits, creating (password shown once) and revoking. */
@Injectable()
export class ApiKeysPageService {
  constructor(private readonly actions: ApiKeyActionsService) {}

  async page(user: DashboardUser, notice?: unknown, error?: { message: string; status: number }, label = ''): Promise<PageResult> {
    const keys = await this.actions.list(user);
    const manageKeys = can(user, 'manage_api_keys');
    const billing = can(user, 'manage_billing');
    return view(
      VIEW,
      {
        title: 'API keys',
        notice: noticeFor(notice),
        error: error?.message,
        label,
        canCreate: manageKeys,
        canRevoke: manageKeys,
        billing,
        atLimit: keys.length >= MAX_ACTIVE_API_KEYS,
        count: keys.length,
        max: MAX_ACTIVE_API_KEYS,
        keys: keys.map((k) => ({
          id: k.id,
          label: k.label,
          username: k.username,
          createdAt: show.time(k.createdAt, user.timeZone),
          lastUsedAt: show.time(k.lastUsedAt, user.timeZone) || 'never',
          purchasesEnabled: k.purchasesEnabled,
          dailyLimit: show.dollars(k.dailyLimitCents),
          // Who sees which controls; the server checks the same rules whatever is posted.
          canSwitchOn: billing,
          canSwitchOff: k.purchasesEnabled,
        })),
      },
      error?.status ?? 200,
    );
  }

  async create(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const label = formText(form, 'label');
    return withFormErrors<PageResult>(
      async () => {
        const key = await this.actions.create(user, label);
        return view('dashboard/views/key-created', { title: 'API key created', key: { label: key.label, username: key.username, password: key.password } });
      },
      (error) => this.page(user, undefined, error, label),
    );
  }

  async revokePage(user: DashboardUser, id: string): Promise<PageResult> {
    if (!can(user, 'manage_api_keys')) throw failure('permissionRequired');
    const key = await this.actions.get(user, keyIdOf(id));
    return view('dashboard/views/key-revoke', { title: 'Revoke API key', key: { id: key.id, label: key.label, username: key.username } });
  }

  async revoke(user: DashboardUser, id: string): Promise<PageResult> {
    await this.actions.revoke(user, keyIdOf(id));
    return redirectTo(withNotice(PAGES.apiKeys.path, 'key_revoked'));
  }

  async purchases(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const apiKeyId = keyIdOf(id);
    return withFormErrors<PageResult>(
      async () => {
        const limitText = formText(form, 'daily_limit');
        const dailyLimitCents = limitText === '' ? undefined : parseDailyLimit(limitText);
        if (dailyLimitCents === null) throw failure('dailyLimitInvalid');
        await this.actions.changePurchases(user, apiKeyId, { enabled: formText(form, 'purchases') === 'on', dailyLimitCents });
        return redirectTo(withNotice(PAGES.apiKeys.path, 'purchases_saved'));
      },
      (error) => this.page(user, undefined, error),
    );
  }
}
