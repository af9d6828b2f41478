import { ErrorText } from '../common/errors/error-catalogue';
import { normaliseAuMobile } from '../common/phone';
import { isStorableText } from '../common/validation/storable-text';
import { analyseMessage, CompiledTemplate, compileTemplate, ContactFields, SenderType, SmsEncoding } from '../common/sms';
import { LinkRewriter, OPTOUT_MARK, PendingLink } from '../links/link-rewriter';
import { parseScheduledFor } from '../common/time/schedule';
import type { ActiveSenders } from '../senders/active-senders';

export const CUSTOM_REF_MAX = 255;

export interface SendOptions {
  allowUnicode: boolean;
  maxParts: number;
  /** Hundredths of a credit per part. */
  partRate: number;
  /** Shortens URLs (with shorten_urls) and makes each recipient's opt-out link. */
  links: LinkRewriter;
  now: Date;
}

/** An entry that passed the field checks, before personalisation. */
export interface CheckedEntry {
  to: string;
  template: string;
  sender: string;
  senderType: SenderType;
  customRef?: string;
  scheduledAt: Date | null;
}

/** What an entry became: a message to store, or an error/blocked result. */
export type ComposedEntry =
  | {
      ok: true;
      to: string;
      text: string;
      sender: string;
      senderType: SenderType;
      customRef?: string;
      scheduledAt: Date | null;
      encoding: SmsEncoding;
      parts: number;
      cost: number;
      links: PendingLink[];
    }
  | { ok: false; to: string; text: string; sender: string; customRef?: string; scheduledAt: Date | null; error: string; blocked?: boolean };

function asText(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

/**
 * Checks one message object of a batch (supplement, per-message errors) in a fixed order: to,
 * message, sender, custom_ref, scheduled_for. Returns the checked entry or its error result. Once the
 * sender matched one of the account's, results show its stored (normalised) form.
 */
export function checkEntry(raw: unknown, senders: ActiveSenders, now: Date): CheckedEntry | Extract<ComposedEntry, { ok: false }> {
  const entry = (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const customRef = typeof entry.custom_ref === 'string' && entry.custom_ref !== '' ? entry.custom_ref : undefined;
  const fail = (error: string, to = asText(entry.to), sender = asText(entry.sender)) => ({
    ok: false as const,
    to,
    text: asText(entry.message),
    sender,
    customRef,
    scheduledAt: null,
    error,
  });

  if (entry.to === undefined || entry.to === null || entry.to === '') return fail(ErrorText.required('to'));
  const to = typeof entry.to === 'string' ? normaliseAuMobile(entry.to) : null;
  if (!to) return fail(ErrorText.invalidPhoneNumber);
  if (typeof entry.message !== 'string' || entry.message === '') return fail(ErrorText.required('message'), to);
  if (!isStorableText(entry.message)) return fail(ErrorText.unstorableText('message'), to);
  if (entry.sender === undefined || entry.sender === null || entry.sender === '') return fail(ErrorText.required('sender'), to);
  const sender = senders.match(entry.sender);
  if (!sender) return fail(ErrorText.invalidSender, to);
  if (entry.custom_ref !== undefined && entry.custom_ref !== null && typeof entry.custom_ref !== 'string') return fail(ErrorText.mustBeString('custom_ref'), to, sender.value);
  if (customRef !== undefined && !isStorableText(customRef)) return fail(ErrorText.unstorableText('custom_ref'), to, sender.value);
  if (customRef !== undefined && customRef.length > CUSTOM_REF_MAX) return fail(ErrorText.customRefTooLong, to, sender.value);
  const schedule = parseScheduledFor(entry.scheduled_for, now);
  if (!schedule.ok) return fail(ErrorText.invalidScheduledFor, to, sender.value);
  return { to, template: entry.message, sender: sender.value, senderType: sender.type, customRef, scheduledAt: schedule.at };
}

/**
 * Renders, counts parts and prices an entry. Placeholders take the contact's fields (empty when
 * there is none), then URLs are shortened (shorten_urls) and {optout} applied; parts and cost are
 * counted on the final text.
 */
export function composeEntry(entry: CheckedEntry, template: CompiledTemplate, fields: ContactFields, options: SendOptions): ComposedEntry {
  const { text, links } = options.links.finish(template.render(fields, OPTOUT_MARK), entry.senderType);
  const base = { to: entry.to, text, sender: entry.sender, customRef: entry.customRef, scheduledAt: entry.scheduledAt };
  const analysis = analyseMessage(text, options.allowUnicode);
  if ('error' in analysis) return { ok: false, ...base, error: ErrorText.unicodeRequired };
  if (analysis.parts > options.maxParts) return { ok: false, ...base, error: ErrorText.tooManyParts(options.maxParts) };
  return { ok: true, ...base, senderType: entry.senderType, encoding: analysis.encoding, parts: analysis.parts, cost: analysis.parts * options.partRate, links };
}

/** Compiles each distinct template once: a 10000-message batch usually repeats a handful of texts. */
export class TemplateCache {
  private readonly cache = new Map<string, CompiledTemplate>();

  get(template: string): CompiledTemplate {
    // A text without placeholders costs less to compile than to look up (and is seldom repeated).
    if (template.indexOf('{') === -1) return compileTemplate(template);
    let compiled = this.cache.get(template);
    if (!compiled) {
      compiled = compileTemplate(template);
      this.cache.set(template, compiled);
    }
    return compiled;
  }
}
