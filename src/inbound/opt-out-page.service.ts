import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { failure } from '../common/errors/error-catalogue';
import { isAuMobile, normaliseAuMobile } from '../common/phone';
import { AddressCounter } from '../common/redis/address-counter';
import { AppConfig } from '../config/app-config';
import { LinkClicksService } from '../links/link-clicks.service';
import { LinkStore } from '../links/link-store.service';
import { formText, type FormBody } from '../pages/form-body';
import { errorModel, withFormErrors } from '../pages/form-error';
import { PageResult, view } from '../pages/page-result';
import { OptOutService } from './opt-out.service';

const VIEW = 'inbound/views/optout';
/** The account's own {optout} code (accounts.optout_code). */
const ACCOUNT_CODE_RE = /^[0-9A-Za-z]{10}$/;

/** What an opt-out link stands for: an account, and for a per-recipient link the number and its message. */
interface OptoutTarget {
  accountId: number;
  accountName: string;
  recipient: string | null;
  messageId: string | null;
}

/** `0412 345 678` shown as `ending in 678`: enough for the recipient to recognise, nothing for anyone else. */
function lastDigits(number: string): string {
  return number.slice(-3);
}

/**
 * The public opt-out page behind `{optout}` (GET/POST /o/{code}). The account's link asks for the
 * number; a per-recipient link knows it and asks only to confirm. Every valid number is unsubscribed
 * and answered alike, so the page never tells whether a number was a recipient; submissions are
 * CSRF-checked (the page layer) and limited per IP address.
 */
@Injectable()
export class OptOutPageService {
  constructor(
    private readonly links: LinkStore,
    private readonly clicks: LinkClicksService,
    private readonly accounts: AccountsService,
    private readonly optOuts: OptOutService,
    private readonly counter: AddressCounter,
    private readonly config: AppConfig,
  ) {}

  async show(code: string, ip: string): Promise<PageResult> {
    const target = await this.target(code, ip);
    return view(VIEW, this.model(code, target));
  }

  async confirm(code: string, form: FormBody | undefined, ip: string): Promise<PageResult> {
    const target = await this.target(code, ip);
    return withFormErrors<PageResult>(
      async () => {
        await this.throttle(ip);
        const number = target.recipient ?? normaliseAuMobile(formText(form, 'number'));
        if (!number || !isAuMobile(number)) throw failure('optoutNumberInvalid');
        await this.optOuts.byLink(target.accountId, number, target.messageId, ip);
        return view(VIEW, { title: 'You are unsubscribed', done: true, accountName: target.accountName });
      },
      (error) => view(VIEW, { ...this.model(code, target), ...errorModel(error), number: formText(form, 'number') }, error.status),
    );
  }

  private model(code: string, target: OptoutTarget): Record<string, unknown> {
    return {
      title: 'Unsubscribe',
      action: `/o/${code}`,
      accountName: target.accountName,
      knownNumber: target.recipient ? lastDigits(target.recipient) : null,
    };
  }

  /**
   * The code's target, for a page or a submission alike. An address that asked for OPTOUT_MISSES_PER_IP
   * unknown codes in the window is refused (429) whatever the code, so codes cannot be guessed at scale
   * by either method; only unknown codes count (a database error is not a miss).
   */
  private async target(code: string, ip: string): Promise<OptoutTarget> {
    const missesKey = `optout-misses:${ip}`;
    const misses = await this.counter.peek(missesKey);
    if (misses.count >= this.config.optoutMissesPerIp) throw failure('optoutThrottled').retryAfter(misses.resetMs / 1000);
    const target = await this.lookup(code);
    if (target) return target;
    await this.counter.add(missesKey, this.config.optoutAttemptWindowMs);
    throw failure('notFound');
  }

  /**
   * A per-recipient code (7 characters) within retention knows its number; past retention it still
   * opts out, asking for the number as the account's link does. Anything else is unknown (null).
   */
  private async lookup(code: string): Promise<OptoutTarget | null> {
    if (ACCOUNT_CODE_RE.test(code)) {
      const account = await this.accounts.findByOptoutCode(code);
      if (account) return { accountId: account.id, accountName: account.name, recipient: null, messageId: null };
    } else {
      const link = await this.links.optoutLink(code);
      if (link) {
        const account = await this.accounts.get(link.accountId);
        const live = link.createdAt.getTime() >= this.clicks.retentionStart().getTime();
        return { accountId: account.id, accountName: account.name, recipient: live ? link.recipient : null, messageId: live ? link.messageId : null };
      }
    }
    return null;
  }

  /** At most OPTOUT_ATTEMPTS_PER_IP submissions per window from one address. */
  private async throttle(ip: string): Promise<void> {
    const key = `optout-attempts:${ip}`;
    if ((await this.counter.add(key, this.config.optoutAttemptWindowMs)) > this.config.optoutAttemptsPerIp)
      throw failure('optoutThrottled').retryAfter((await this.counter.peek(key)).resetMs / 1000);
  }
}
