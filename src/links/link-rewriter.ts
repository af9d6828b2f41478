import { optoutText, SenderType } from '../common/sms';
import { CodeSource } from './link-codes';
import { findUrls } from './find-urls';
import { isShortenable } from './shortenable';

export type LinkKind = 'url' | 'optout';

/** A link made for one recipient while rendering, before its message has an id (the message names the recipient). */
export interface PendingLink {
  code: string;
  kind: LinkKind;
  /** The original URL (null for an opt-out link). */
  url: string | null;
}

/** A link ready to store with its message. */
export interface LinkDraft extends PendingLink {
  messageId: string;
}

/** The drafts of one send, and how to rewrite its texts when a code turns out to be taken. */
export interface LinkBatch {
  drafts: LinkDraft[];
  recode(draft: LinkDraft, code: string): void;
}

/**
 * Stands for `{optout}` while a message is rendered, so shortening cannot touch the opt-out link. A NUL
 * never occurs in stored text (templates and contact fields cannot hold one).
 */
export const OPTOUT_MARK = '\u0000';

/** The link's text in a message: `{base}/{code}`, or `{base}/o/{code}` for an opt-out link. */
export function shortUrlOf(base: string, kind: LinkKind, code: string): string {
  return kind === 'optout' ? `${base}/o/${code}` : `${base}/${code}`;
}

/** Rewrites `text` for a draft whose code was replaced (same length: parts and cost do not change). */
export function recodeText(text: string, base: string, kind: LinkKind, from: string, to: string): string {
  return text.split(shortUrlOf(base, kind, from)).join(shortUrlOf(base, kind, to));
}

/**
 * The link step of rendering one send: with `shorten`, every http(s) URL of a rendered message that may
 * be shortened (isShortenable: public, no credentials) becomes `{base}/{code}` (one code per recipient and URL, the same code for a URL repeated in one message);
 * `{optout}` (rendered as OPTOUT_MARK) becomes the sender type's opt-out text, for alphanumeric and own
 * senders with a per-recipient link `{base}/o/{code}`, which is shorter than the account's link, so the
 * page knows the number and asks only to confirm.
 */
export class LinkRewriter {
  private readonly codes = new CodeSource();
  private readonly taken = new Set<string>();

  constructor(
    private readonly base: string,
    private readonly shorten: boolean,
  ) {}

  finish(rendered: string, senderType: SenderType): { text: string; links: PendingLink[] } {
    const links: PendingLink[] = [];
    let text = this.shorten ? this.shortenUrls(rendered, links) : rendered;
    if (text.includes(OPTOUT_MARK)) {
      let link = '';
      if (senderType === 'alpha' || senderType === 'own') {
        const code = this.codes.fresh(this.taken);
        links.push({ code, kind: 'optout', url: null });
        link = shortUrlOf(this.base, 'optout', code);
      }
      text = text.split(OPTOUT_MARK).join(optoutText(senderType, link));
    }
    return { text, links };
  }

  private shortenUrls(text: string, links: PendingLink[]): string {
    const urls = findUrls(text);
    if (urls.length === 0) return text;
    // Only a message with several URLs can repeat one.
    const codeOf = urls.length > 1 ? new Map<string, string>() : undefined;
    let out = '';
    let at = 0;
    for (const { url, index } of urls) {
      if (!isShortenable(url)) continue;
      let code = codeOf?.get(url);
      if (code === undefined) {
        code = this.codes.fresh(this.taken);
        codeOf?.set(url, code);
        links.push({ code, kind: 'url', url });
      }
      out += text.slice(at, index) + shortUrlOf(this.base, 'url', code);
      at = index + url.length;
    }
    return out + text.slice(at);
  }
}
