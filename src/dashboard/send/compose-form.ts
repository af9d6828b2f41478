import { randomUUID } from 'node:crypto';
import { failure } from '../../common/errors/error-catalogue';
import { normaliseAuMobile } from '../../common/phone';
import { parseLocalDateTime } from '../../common/time/local-time';
import { isUuid } from '../../common/validation/uuid';
import { MAX_MESSAGES_PER_REQUEST } from '../../messaging/dto/send-messages.dto';
import { formText, type FormBody } from '../../pages/form-body';

export type Recipients = { kind: 'numbers'; numbers: string[] } | { kind: 'list'; listId: number };

/** A compose form read into what the send services take. */
export interface ComposeRequest {
  formKey: string;
  recipients: Recipients;
  sender: string;
  message: string;
  shortenUrls: boolean;
  /** null: send now. */
  scheduledAt: Date | null;
  /** Lists only: spread dispatch over this many minutes. */
  staggerMinutes?: number;
}

/** The form's fields as typed, to render it again (the same names as the inputs). */
export interface ComposeFields {
  form_key: string;
  to_kind: 'numbers' | 'list';
  numbers: string;
  list_id: string;
  sender: string;
  message: string;
  shorten_urls: boolean;
  when: 'now' | 'later';
  send_date: string;
  send_time: string;
  stagger_minutes: string;
  /** The test send's own key (one per rendered form): a double submit of the test sends one. */
  test_key: string;
  /** Which of the user's verified mobiles the test goes to. */
  test_to: string;
}

export function composeFields(form: FormBody | undefined, fallbackKey: string): ComposeFields {
  const formKey = formText(form, 'form_key').toLowerCase();
  return {
    form_key: isUuid(formKey) ? formKey : fallbackKey,
    to_kind: formText(form, 'to_kind') === 'list' ? 'list' : 'numbers',
    numbers: formText(form, 'numbers'),
    list_id: formText(form, 'list_id'),
    sender: formText(form, 'sender'),
    // The message keeps its spaces: they are part of what is sent.
    message: rawText(form, 'message'),
    shorten_urls: formText(form, 'shorten_urls') !== '',
    when: formText(form, 'when') === 'later' ? 'later' : 'now',
    send_date: formText(form, 'send_date'),
    send_time: formText(form, 'send_time'),
    stagger_minutes: formText(form, 'stagger_minutes'),
    test_key: isUuid(formText(form, 'test_key').toLowerCase()) ? formText(form, 'test_key').toLowerCase() : randomUUID(),
    test_to: formText(form, 'test_to'),
  };
}

function rawText(form: FormBody | undefined, name: string): string {
  const value = form && Object.prototype.hasOwnProperty.call(form, name) ? form[name] : undefined;
  if (value === undefined) return '';
  return (Array.isArray(value) ? value[value.length - 1] : value).replace(/\r\n/g, '\n');
}

/**
 * Numbers as a person pastes them: one a line or separated by commas or semicolons. The same mobile
 * typed twice, in any form (0412 345 678, +61412345678), is one recipient; what is not a mobile is kept
 * as typed, for the send's checks to name.
 */
export function splitNumbers(text: string): string[] {
  const byNumber = new Map<string, string>();
  for (const piece of text.split(/[\n,;]+/)) {
    const typed = piece.trim();
    if (typed && !byNumber.has(normaliseAuMobile(typed) ?? typed)) byNumber.set(normaliseAuMobile(typed) ?? typed, typed);
  }
  return [...byNumber.values()];
}

/**
 * Reads the form, in the order a person fills it: recipients, message, schedule (a day and time on the
 * account's clocks, DST-safe: a skipped time is refused, a repeated one is its first occurrence), stagger.
 * The sender and the texts themselves are checked by the send services, with the API's texts.
 */
export function readCompose(fields: ComposeFields, timeZone: string, now: Date): ComposeRequest {
  let recipients: Recipients;
  if (fields.to_kind === 'list') {
    const listId = Number(fields.list_id);
    if (!/^\d+$/.test(fields.list_id) || !Number.isSafeInteger(listId) || listId < 1) throw failure('composeListRequired');
    recipients = { kind: 'list', listId };
  } else {
    const numbers = splitNumbers(fields.numbers);
    if (numbers.length === 0) throw failure('composeNumbersRequired');
    if (numbers.length > MAX_MESSAGES_PER_REQUEST) throw failure('composeTooManyNumbers', MAX_MESSAGES_PER_REQUEST);
    recipients = { kind: 'numbers', numbers };
  }
  if (fields.message.trim() === '') throw failure('pageMessageRequired');

  let scheduledAt: Date | null = null;
  if (fields.when === 'later') {
    const parsed = parseLocalDateTime(fields.send_date, fields.send_time, timeZone);
    if (!parsed.ok) throw parsed.reason === 'skipped' ? failure('composeScheduleSkipped', timeZone) : failure('composeScheduleInvalid');
    if (parsed.at.getTime() <= now.getTime()) throw failure('composeSchedulePast');
    scheduledAt = parsed.at;
  }

  let staggerMinutes: number | undefined;
  if (recipients.kind === 'list' && fields.stagger_minutes !== '') {
    staggerMinutes = Number(fields.stagger_minutes);
    if (!/^\d+$/.test(fields.stagger_minutes) || staggerMinutes < 1 || staggerMinutes > 1440) throw failure('staggerOutOfRange');
  }
  return { formKey: fields.form_key, recipients, sender: fields.sender, message: fields.message, shortenUrls: fields.shorten_urls, scheduledAt, staggerMinutes };
}
