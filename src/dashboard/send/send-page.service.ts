import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { DomainErrorKind } from '../../common/errors/domain-error';
import { failure } from '../../common/errors/error-catalogue';
import { CONTACT_PLACEHOLDER_FIELDS, OPTOUT_PLACEHOLDER } from '../../common/sms';
import { Clock } from '../../common/time/clock';
import { ListsService } from '../../lists/lists.service';
import { ListSendService } from '../../messaging/list-send.service';
import { SendBatchService } from '../../messaging/send-batch.service';
import { SendAlreadySubmitted, type SendRequester } from '../../messaging/send-requester';
import { formText, type FormBody } from '../../pages/form-body';
import { json, PageResult, redirectTo, view } from '../../pages/page-result';
import { OwnMobileService } from '../../sender-identity/own-mobile/own-mobile.service';
import { SendersService } from '../../senders/senders.service';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { zoneLabel } from '../format';
import { errorModel, fixableFormError, type FormError } from '../../pages/form-error';
import { withHeldNotice, withNotice } from '../notices';
import { isUuid } from '../../common/validation/uuid';
import { ComposeFields, composeFields, ComposeRequest, readCompose } from './compose-form';
import { ComposePreview, ComposePreviewService } from './compose-preview.service';

/** Errors shown on the compose form rather than as an error page: what the person can change there (a list deleted meanwhile, too few credits too). */
const SHOWN_ON_FORM: readonly DomainErrorKind[] = ['invalid', 'forbidden', 'not_found', 'conflict', 'unprocessable', 'too_many_requests'];

const PLACEHOLDERS = [...CONTACT_PLACEHOLDER_FIELDS.map((field) => `{${field}}`), OPTOUT_PLACEHOLDER];

/**
 * The compose page: to numbers or a list, from an active sender, now or at a time on the account's
 * clocks. Previews and sends go through the API's send services; the form's key makes a double
 * submit store one send.
 */
@Injectable()
export class SendPageService {
  constructor(
    private readonly previews: ComposePreviewService,
    private readonly batch: SendBatchService,
    private readonly listSend: ListSendService,
    private readonly senders: SendersService,
    private readonly lists: ListsService,
    private readonly ownMobiles: OwnMobileService,
    private readonly clock: Clock,
  ) {}

  async page(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    const fields = composeFields(undefined, randomUUID());
    if (typeof query.list === 'string' && /^\d+$/.test(query.list)) {
      fields.to_kind = 'list';
      fields.list_id = query.list;
    }
    return this.form(user, fields, {});
  }

  /** The Preview button (no JavaScript): the form again with what it would send. */
  async previewPage(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const fields = composeFields(form, randomUUID());
    try {
      const preview = await this.previews.preview(user.accountId, readCompose(fields, user.timeZone, this.clock.now()), user.timeZone);
      return this.form(user, fields, { preview });
    } catch (err) {
      return this.formError(user, fields, err);
    }
  }

  /** The page's script, as the text changes: the preview as JSON, or `{"error": ...}` with the form's status. */
  async previewJson(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    try {
      return json(await this.previews.preview(user.accountId, readCompose(composeFields(form, randomUUID()), user.timeZone, this.clock.now()), user.timeZone));
    } catch (err) {
      const shown = shownOnForm(err);
      return json({ error: shown.message }, shown.status);
    }
  }

  async send(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const fields = composeFields(form, '');
    // Every rendered form carries its key; one without is not our form.
    if (fields.form_key === '') throw failure('csrfTokenInvalid');
    let request: ComposeRequest;
    let preview: ComposePreview;
    try {
      request = readCompose(fields, user.timeZone, this.clock.now());
      preview = await this.previews.preview(user.accountId, request, user.timeZone);
    } catch (err) {
      return this.formError(user, fields, err);
    }
    if (preview.errorCount > 0 || preview.recipients === 0) {
      const refusal = failure(preview.recipients === 0 ? 'composeNothingToSend' : 'composeFixRecipients');
      return this.form(user, fields, { preview, error: refusal.message }, 400);
    }
    const requester: SendRequester = { accountId: user.accountId, apiKeyId: null, userId: user.userId, formKey: request.formKey };
    try {
      const { sendId, heldUntil } = await this.store(requester, request);
      const campaign = `/campaigns/${sendId}`;
      return redirectTo(heldUntil ? withHeldNotice(campaign, heldUntil) : withNotice(campaign, request.scheduledAt ? 'send_scheduled' : 'send_queued'));
    } catch (err) {
      if (err instanceof SendAlreadySubmitted) return redirectTo(withNotice(`/campaigns/${err.sendId}`, 'send_already_submitted'));
      return this.formError(user, fields, err);
    }
  }

  /**
   * The test send: the message as composed, now, to one of the user's own verified mobiles, through the
   * same send service as any send (its checks, texts and charge). It has its own key (test_key), so a
   * double submit sends one test and the form's own key stays free for the real send; the form comes
   * back as typed, with a new test key and where the test went.
   */
  async testSend(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const fields = composeFields(form, '');
    const testKey = formText(form, 'test_key').toLowerCase();
    if (fields.form_key === '' || !isUuid(testKey)) throw failure('csrfTokenInvalid');
    const to = formText(form, 'test_to');
    if (!(await this.ownMobiles.verifiedBy(user.accountId, user.userId)).includes(to)) {
      return this.formError(user, fields, failure('composeTestMobileUnknown'));
    }
    let request: ComposeRequest;
    let preview: ComposePreview;
    try {
      request = readCompose({ ...fields, to_kind: 'numbers', numbers: to, when: 'now', stagger_minutes: '' }, user.timeZone, this.clock.now());
      preview = await this.previews.preview(user.accountId, request, user.timeZone);
    } catch (err) {
      return this.formError(user, fields, err);
    }
    if (preview.recipients === 0) {
      const reason = preview.errors[0]?.error ?? (preview.blocked > 0 ? 'you opted out of this account’s messages' : 'it cannot be sent this message');
      return this.formError(user, fields, failure('composeTestRefused', reason));
    }
    const requester: SendRequester = { accountId: user.accountId, apiKeyId: null, userId: user.userId, formKey: testKey };
    let tested: { to: string; sendId: number; again: boolean };
    try {
      tested = { to: showMobile(to), sendId: (await this.store(requester, request)).sendId, again: false };
    } catch (err) {
      if (!(err instanceof SendAlreadySubmitted)) return this.formError(user, fields, err);
      tested = { to: showMobile(to), sendId: err.sendId, again: true };
    }
    return this.form(user, { ...fields, test_key: randomUUID() }, { tested });
  }

  /**
   * Stores the send; `heldUntil`: when the earliest message quiet hours moved later than asked now goes (list
   * sends only: the page's batch sends do not ask for quiet hours), else null.
   */
  private async store(requester: SendRequester, request: ComposeRequest): Promise<{ sendId: number; heldUntil: Date | null }> {
    const scheduledFor = request.scheduledAt ? request.scheduledAt.toISOString() : undefined;
    if (request.recipients.kind === 'list') {
      const { result, heldUntil } = await this.listSend.sendTelling(requester, {
        listId: request.recipients.listId,
        sender: request.sender,
        message: request.message,
        scheduledFor,
        staggerMinutes: request.staggerMinutes,
        shortenUrls: request.shortenUrls,
      });
      return { sendId: result.send_id, heldUntil };
    }
    const result = await this.batch.send(requester, {
      messages: request.recipients.numbers.map((to) => ({ to, message: request.message, sender: request.sender, scheduled_for: scheduledFor })),
      enableUnicode: true,
      shortenUrls: request.shortenUrls,
    });
    return { sendId: result.send_id, heldUntil: null };
  }

  private formError(user: DashboardUser, fields: ComposeFields, err: unknown): Promise<PageResult> {
    const shown = shownOnForm(err);
    return this.form(user, fields, errorModel(shown), shown.status);
  }

  private async form(
    user: DashboardUser,
    fields: ComposeFields,
    extra: { preview?: ComposePreview; error?: string; errorField?: string; tested?: { to: string; sendId: number; again: boolean } },
    status = 200,
  ): Promise<PageResult> {
    const [senders, lists, mobiles] = await Promise.all([
      this.senders.active(user.accountId),
      this.lists.names(user.accountId),
      this.ownMobiles.verifiedBy(user.accountId, user.userId),
    ]);
    return view(
      'dashboard/views/send',
      {
        title: 'Send',
        fields,
        senders: senders.values().map((value) => ({ value, selected: value === fields.sender })),
        lists: lists.map((l) => ({ id: l.id, name: l.name, selected: String(l.id) === fields.list_id })),
        toList: fields.to_kind === 'list',
        later: fields.when === 'later',
        placeholders: PLACEHOLDERS,
        zone: zoneLabel(user.timeZone),
        test: {
          mobiles: mobiles.map((number) => ({ number, shown: showMobile(number), selected: number === fields.test_to })),
          canVerify: can(user, 'manage_senders'),
        },
        ...extra,
      },
      status,
    );
  }
}

function shownOnForm(err: unknown): FormError {
  const shown = fixableFormError(err, SHOWN_ON_FORM);
  if (!shown) throw err;
  return shown;
}

/** A normalised mobile (61412345678) as people write it: 0412 345 678. */
function showMobile(number: string): string {
  return `0${number.slice(2, 5)} ${number.slice(5, 8)} ${number.slice(8)}`;
}
