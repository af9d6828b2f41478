import { LinkBatch, LinkDraft, PendingLink, recodeText } from '../links/link-rewriter';
import type { NewMessage } from './messages.repository';

/**
 * Collects a send's links as its messages get ids, remembering which message row (and which result
 * entry, whose text the response shows) holds each, so a code that turns out to be taken can be
 * rewritten in both.
 */
export class SendLinks {
  private readonly drafts: LinkDraft[] = [];
  private readonly holders = new Map<LinkDraft, { row: number; entry: number }>();

  constructor(private readonly base: string) {}

  add(links: PendingLink[], messageId: string, row: number, entry = row): void {
    for (const link of links) {
      const draft = { ...link, messageId };
      this.drafts.push(draft);
      this.holders.set(draft, { row, entry });
    }
  }

  batch(rows: NewMessage[], entries?: Array<{ text: string }>): LinkBatch {
    return {
      drafts: this.drafts,
      recode: (draft, code) => {
        const at = this.holders.get(draft);
        if (!at) return;
        rows[at.row].body = recodeText(rows[at.row].body, this.base, draft.kind, draft.code, code);
        if (entries) entries[at.entry].text = recodeText(entries[at.entry].text, this.base, draft.kind, draft.code, code);
      },
    };
  }
}
