import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { keysetPage, type KeysetCursor, type KeysetPage } from '../common/http/keyset';
import { Page, PageResult, pageResult } from '../common/http/pagination';
import { AppConfig } from '../config/app-config';
import type { Tx } from '../database/unit-of-work';
import { checkWebhookUrl } from './url-policy';
import { toSigningSecret, toWebhookDeliveryView, toWebhookSettingsView, WebhookDeliveryView, WebhookSettingsView } from './webhooks.mapper';
import { AttemptFilter, WebhookKind, WebhooksRepository } from './webhooks.repository';

const REASON_CONDITION = {
  invalid: 'invalidWebhookUrl',
  not_https: 'webhookNotHttps',
  not_allowed: 'webhookNotAllowed',
  too_long: 'webhookUrlTooLong',
  whitespace: 'webhookUrlWhitespace',
  unresolved: 'webhookHostUnresolved',
} as const;

@Injectable()
export class WebhookSettingsService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly config: AppConfig,
  ) {}

  async get(accountId: number): Promise<WebhookSettingsView> {
    const settings = await this.repo.settings(accountId);
    if (!settings) throw failure('accountNotFound', accountId);
    return toWebhookSettingsView(settings);
  }

  /**
   * Each supplied URL is checked (https, and not resolving to a private address); '' switches that kind
   * off. `inTx` lets a caller write the change inside its own transaction (the dashboard's audit entry).
   */
  async update(accountId: number, input: { inbound?: string; status?: string }, inTx?: (write: (tx: Tx) => Promise<void>) => Promise<void>): Promise<WebhookSettingsView> {
    const urls: { inbound?: string; status?: string } = {};
    for (const kind of ['inbound', 'status'] as const) {
      const value = input[kind];
      if (value === undefined) continue;
      // Only ordinary spaces around the URL are forgiven (a pasted value); any other whitespace is refused.
      const trimmed = value.replace(/^ +| +$/g, '');
      if (trimmed === '') {
        urls[kind] = '';
        continue;
      }
      const verdict = await checkWebhookUrl(trimmed, this.config.webhookAllowPrivate);
      if (!verdict.ok) throw failure(REASON_CONDITION[verdict.reason]);
      urls[kind] = verdict.url.href;
    }
    if (Object.keys(urls).length) {
      if (inTx) await inTx((tx) => this.repo.updateUrls(accountId, urls, tx));
      else await this.repo.updateUrls(accountId, urls);
    }
    return this.get(accountId);
  }

  /** Creates or rotates the secret (in the caller's transaction when given one); it is shown this once. */
  async rotateSecret(accountId: number, tx?: Tx): Promise<ReturnType<typeof toSigningSecret>> {
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    await this.repo.setSecret(accountId, secret, tx);
    return toSigningSecret(secret);
  }

  async deliveries(accountId: number, event: string | undefined, page: Page): Promise<PageResult<WebhookDeliveryView>> {
    let kind: WebhookKind | undefined;
    if (event !== undefined && event !== '') {
      if (event !== 'status' && event !== 'inbound') throw failure('invalidEventFilter');
      kind = event;
    }
    const { total, rows } = await this.repo.deliveriesPage(accountId, kind, page);
    return pageResult(page, total, rows.map(toWebhookDeliveryView));
  }

  /** A keyset page of the account's delivery attempts, newest first (the dashboard's list, filtered). */
  async attemptsPage(accountId: number, filter: AttemptFilter, cursor: KeysetCursor, limit: number): Promise<KeysetPage<WebhookDeliveryView>> {
    const page = keysetPage(await this.repo.attemptsKeysetPage(accountId, filter, cursor, limit + 1), cursor, limit, (r) => r.id);
    return { ...page, rows: page.rows.map(toWebhookDeliveryView) };
  }
}
