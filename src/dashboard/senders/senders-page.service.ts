import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { FreeNumberService } from '../../numbers/free-number.service';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { OwnMobileService } from '../../sender-identity/own-mobile/own-mobile.service';
import { PendingSendersService } from '../../sender-identity/own-mobile/pending-senders.service';
import { SenderRegistrationsService } from '../../sender-identity/registrations/sender-registrations.service';
import { SenderRemovalService } from '../../sender-identity/sender-removal.service';
import type { DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';
import { sendersPageModel, type SenderForms } from './senders-page.model';

const VIEWS = { page: 'dashboard/views/senders', deactivate: 'dashboard/views/sender-deactivate', confirm: 'dashboard/views/sender-confirm' };
/** Registrations the page lists, newest first. */
const REGISTRATIONS_SHOWN = 100;

/** A sender id from a path: anything but a positive integer is a sender that does not exist. */
function senderIdOf(text: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw failure('senderNotFound');
  return Number(text);
}

/**
 * The Sender IDs page (permission manage_senders, checked by the page's access rule on every route):
 * what it shows, and its forms, each calling the same service as the API (same rules and texts; every
 * change is audited by that service in the change's transaction).
 */
@Injectable()
export class SendersPageService {
  constructor(
    private readonly pending: PendingSendersService,
    private readonly ownMobile: OwnMobileService,
    private readonly removal: SenderRemovalService,
    private readonly registrations: SenderRegistrationsService,
    private readonly freeNumber: FreeNumberService,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: FormError & { form: keyof SenderForms }, forms: Partial<SenderForms> = {}): Promise<PageResult> {
    const [senders, claim, available, registrations] = await Promise.all([
      this.pending.current(user.accountId),
      this.freeNumber.claimOf(user.accountId),
      this.freeNumber.available(),
      this.registrations.page(user.accountId, undefined, { limit: REGISTRATIONS_SHOWN, offset: 0 }),
    ]);
    const model = sendersPageModel({ senders, claim, freeNumbersAvailable: available > 0, registrations: registrations.results, forms, error, timeZone: user.timeZone });
    return view(VIEWS.page, { title: 'Sender IDs', notice: noticeFor(notice), ...model }, error?.status ?? 200);
  }

  async registerOwn(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const own = { number: formText(form, 'number'), label: formText(form, 'label') };
    return withFormErrors<PageResult>(
      async () => {
        const { resent, testConfirmationUrl } = await this.ownMobile.register(user, own);
        // A test account's text reaches no phone: the person opens its link here instead.
        if (testConfirmationUrl) return redirectTo(new URL(testConfirmationUrl).pathname);
        return redirectTo(withNotice(PAGES.senders.path, resent ? 'own_link_resent' : 'own_link_sent'));
      },
      (error) => this.page(user, undefined, { ...error, form: 'own' }, { own }),
    );
  }

  async resend(user: DashboardUser, id: string): Promise<PageResult> {
    const senderId = senderIdOf(id);
    const found = (await this.pending.current(user.accountId)).find((s) => s.sender.id === senderId && s.sender.status === 'pending');
    if (!found) throw failure('senderNotFound');
    return withFormErrors<PageResult>(
      async () => {
        const { testConfirmationUrl } = await this.ownMobile.register(user, { number: found.sender.value });
        if (testConfirmationUrl) return redirectTo(new URL(testConfirmationUrl).pathname);
        return redirectTo(withNotice(PAGES.senders.path, 'own_link_resent'));
      },
      (error) => this.page(user, undefined, { ...error, form: 'own' }),
    );
  }

  async deactivatePage(user: DashboardUser, id: string): Promise<PageResult> {
    const senderId = senderIdOf(id);
    const found = (await this.pending.current(user.accountId)).find((s) => s.sender.id === senderId);
    if (!found) throw failure('senderNotFound');
    const { sender } = found;
    if (sender.type === 'dedicated') throw failure('dedicatedSenderNotRemovable');
    if (sender.type === 'shared') throw failure('sharedSenderNotRemovable');
    return view(VIEWS.deactivate, { title: 'Deactivate sender', sender: { id: sender.id, value: sender.value, pending: sender.status === 'pending', type: sender.type } });
  }

  async deactivate(user: DashboardUser, id: string): Promise<PageResult> {
    await this.removal.deactivateById(user, senderIdOf(id));
    return redirectTo(withNotice(PAGES.senders.path, 'sender_deactivated'));
  }

  async claimFreeNumber(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const address = { street: formText(form, 'street'), suburb: formText(form, 'suburb'), state: formText(form, 'state'), postcode: formText(form, 'postcode') };
    return withFormErrors<PageResult>(
      async () => {
        await this.freeNumber.claim(user, address);
        return redirectTo(withNotice(PAGES.senders.path, 'free_number_claimed'));
      },
      (error) => this.page(user, undefined, { ...error, form: 'address' }, { address }),
    );
  }

  async submitRegistration(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const registration = { sender: formText(form, 'sender'), businessName: formText(form, 'business_name'), abn: formText(form, 'abn'), reason: formText(form, 'reason') };
    return withFormErrors<PageResult>(
      async () => {
        const saved = await this.registrations.submit(user, registration);
        return redirectTo(withNotice(PAGES.senders.path, saved.state === 'approved' ? 'registration_reactivated' : 'registration_submitted'));
      },
      (error) => this.page(user, undefined, { ...error, form: 'registration' }, { registration }),
    );
  }

  /** The texted link (no sign-in): confirmed, or a page saying the link cannot be used. */
  async confirmPage(token: string, ip: string): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => view(VIEWS.confirm, { title: 'Number confirmed', confirmed: await this.ownMobile.confirm(token, ip) }),
      (error) => view(VIEWS.confirm, { title: 'Link not valid', ...errorModel(error) }, error.status),
    );
  }
}
