import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { KeyAccessInput, MAX_DAILY_MESSAGE_CAP } from '../../accounts/api-key-access';
import { API_SCOPES, STORED_API_SCOPES } from '../../common/auth/api-scopes';
import { formList, formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
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

/** The scope checkboxes of a form: every scope but purchases (its own switch), ticked as `held` says. */
function scopeBoxes(held: readonly string[], idSuffix: string) {
  return API_SCOPES.filter((s) => s.scope !== 'purchases').map((s) => ({ ...s, checked: held.includes(s.scope), id: `scope-${s.scope.replace(':', '-')}-${idSuffix}` }));
}

/** What a posted access form asks for: scopes (checkboxes), allowed addresses (a text area) and the cap. */
function accessOf(form: FormBody | undefined): KeyAccessInput {
  return { scopes: formList(form, 'scopes'), cidrs: formText(form, 'allowed_cidrs'), cap: formText(form, 'daily_message_cap') };
}

/** A creation form without any access field (a script posting only a label) asks for the defaults; the page's form always sends them. */
function asksForAccess(form: FormBody | undefined): boolean {
  return ['scopes', 'allowed_cidrs', 'daily_message_cap'].some((name) => form !== undefined && Object.prototype.hasOwnProperty.call(form, name));
}

interface CreateDraft {
  label: string;
  scopes: readonly string[];
  cidrs: string;
  cap: string;
}

/** Settings > API: the keys, their scopes, addresses, caps, purchases and limits, creating (password shown once) and revoking. */
@Injectable()
export class ApiKeysPageService {
  constructor(private readonly actions: ApiKeyActionsService) {}

  async page(
    user: DashboardUser,
    notice?: unknown,
    error?: FormError,
    draft: CreateDraft = { label: '', scopes: STORED_API_SCOPES, cidrs: '', cap: '' },
    /** The key whose access or purchases form was refused (none: the create form). */
    failed?: { keyId: number; form: 'access' | 'purchases' },
  ): Promise<PageResult> {
    const keys = await this.actions.list(user);
    const manageKeys = can(user, 'manage_api_keys');
    const billing = can(user, 'manage_billing');
    return view(
      VIEW,
      {
        title: 'API keys',
        notice: noticeFor(notice),
        // A key's two forms share no field name, so the key's id tells its fields from the create form's.
        ...errorModel(error, failed ? String(failed.keyId) : 'new'),
        label: draft.label,
        draft: { scopes: scopeBoxes(draft.scopes, 'new'), cidrs: draft.cidrs, cap: draft.cap },
        maxCap: MAX_DAILY_MESSAGE_CAP,
        canCreate: manageKeys,
        canEditAccess: manageKeys,
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
          scopes: scopeBoxes(k.scopes, String(k.id)),
          scopeNames: [...STORED_API_SCOPES.filter((s) => k.scopes.includes(s)), ...(k.purchasesEnabled ? ['purchases'] : [])].join(', '),
          cidrs: k.allowedCidrs.join('\n'),
          cidrList: k.allowedCidrs.join(', '),
          cap: k.dailyMessageCap ?? '',
          // The form that failed keeps the open state, so the error is next to what to fix.
          open: failed?.form === 'access' && failed.keyId === k.id,
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
    const draft: CreateDraft = {
      label: formText(form, 'label'),
      scopes: asksForAccess(form) ? formList(form, 'scopes') : STORED_API_SCOPES,
      cidrs: formText(form, 'allowed_cidrs'),
      cap: formText(form, 'daily_message_cap'),
    };
    return withFormErrors<PageResult>(
      async () => {
        const key = await this.actions.create(user, draft.label, asksForAccess(form) ? accessOf(form) : undefined);
        return view('dashboard/views/key-created', { title: 'API key created', key: { label: key.label, username: key.username, password: key.password } });
      },
      (error) => this.page(user, undefined, error, draft),
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

  async access(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const apiKeyId = keyIdOf(id);
    return withFormErrors<PageResult>(
      async () => {
        await this.actions.changeAccess(user, apiKeyId, accessOf(form));
        return redirectTo(withNotice(PAGES.apiKeys.path, 'key_access_saved'));
      },
      (error) => this.page(user, undefined, error, undefined, { keyId: apiKeyId, form: 'access' }),
    );
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
      (error) => this.page(user, undefined, error, undefined, { keyId: apiKeyId, form: 'purchases' }),
    );
  }
}
