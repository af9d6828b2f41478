import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import type { LinkBatch } from './link-rewriter';
import { CodeSource, LINK_CODE_RE } from './link-codes';
import { LinksRepository } from './links.repository';

/** A per-recipient opt-out link: whose number, on which account, from which message. */
export interface OptoutLink {
  accountId: number;
  recipient: string;
  messageId: string;
  createdAt: Date;
}

/** A code taken by another send between drawing and storing is ~1 in 10^8 per batch; five rounds never run out. */
const MAX_ROUNDS = 5;

/**
 * Stores a send's links in its transaction, set-based. A code already in the database (another send
 * drew it) is not an error: that link gets a fresh code and its message's text is rewritten (same
 * length, so parts and cost stand), and the send's links are inserted again.
 */
@Injectable()
export class LinkStore {
  private readonly codes = new CodeSource();

  constructor(private readonly links: LinksRepository) {}

  async store(accountId: number, sendId: number, batch: LinkBatch, tx: Tx): Promise<void> {
    const drawn = new Set(batch.drafts.map((d) => d.code));
    for (let round = 1; ; round++) {
      const outcome = await this.links.insertAll(accountId, sendId, batch.drafts, tx);
      if (outcome.stored) return;
      if (round === MAX_ROUNDS) throw new Error(`short link codes still taken after ${MAX_ROUNDS} rounds`);
      for (const draft of batch.drafts) {
        if (!outcome.taken.has(draft.code)) continue;
        const code = this.codes.fresh(drawn);
        batch.recode(draft, code);
        draft.code = code;
      }
    }
  }

  /** The per-recipient opt-out link behind a code; null when there is none (or the code is not one). */
  async optoutLink(code: string): Promise<OptoutLink | null> {
    if (!LINK_CODE_RE.test(code)) return null;
    const row = await this.links.findOptout(code);
    return row ? { accountId: row.account_id, recipient: row.recipient, messageId: row.message_id, createdAt: row.created_at } : null;
  }
}
