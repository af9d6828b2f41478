import { LinkBatch, LinkDraft, PendingLink, recodeText } from '../links/link-rewriter';
import type { NewMessage } from './messages.repository';

/**
 * Collects a send's links as its messages get ids, remembering which message row (and which result
 * entry, whose text the response shows) holds each, so a code that turns out to be taken can be
 * rewritten in both.
 */
export class SendLinks {
  private readonly drafts: LinkDraft[] = [];
  /** Where drafts[i] appears: its message row and result entry (parallel arrays, no per-link map). */
  private readonly rows: number[] = [];
  private readonly entries: number[] = [];

  constructor(private readonly base: string) {}

  add(links: PendingLink[], messageId: string, row: number, entry = row): void {
    for (const link of links) {
      this.drafts.push({ code: link.code, kind: link.kind, url: link.url, messageId });
      this.rows.push(row);
      this.entries.push(entry);
    }
  }

  batch(rows: NewMessage[], entries?: Array<{ text: string }>): LinkBatch {
    return {
      drafts: this.drafts,
      // Rare (a code another send took): a search is cheaper than indexing every link for it.
      recode: (draft, code) => {
        const i = this.drafts.indexOf(draft);
        if (i === -1) return;
        const row = this.rows[i];
        rows[row].body = recodeText(rows[row].body, this.base, draft.kind, draft.code, code);
        if (entries) entries[this.entries[i]].text = recodeText(entries[this.entries[i]].text, this.base, draft.kind, draft.code, code);
      },
    };
  }
}
