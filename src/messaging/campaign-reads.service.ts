import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { CampaignReadsRepository, CampaignRow, FailureReasonRow } from './campaign-reads.repository';

/** Sends a page of campaigns shows. */
export const CAMPAIGNS_PER_PAGE = 20;

/** An account's sends as campaigns: newest first with live counts, and one send in full. */
@Injectable()
export class CampaignReadsService {
  constructor(private readonly campaigns: CampaignReadsRepository) {}

  /** A page of sends, and the id to continue before when there may be more. */
  async page(accountId: number, beforeId: number | null): Promise<{ rows: CampaignRow[]; nextBefore: number | null }> {
    const rows = await this.campaigns.page(accountId, beforeId, CAMPAIGNS_PER_PAGE + 1);
    const more = rows.length > CAMPAIGNS_PER_PAGE;
    const shown = rows.slice(0, CAMPAIGNS_PER_PAGE);
    return { rows: shown, nextBefore: more ? shown[shown.length - 1].id : null };
  }

  async one(accountId: number, sendId: number): Promise<CampaignRow> {
    const row = Number.isSafeInteger(sendId) && sendId > 0 ? await this.campaigns.one(accountId, sendId) : null;
    if (!row) throw failure('sendNotFound');
    return row;
  }

  async outcomesByMinute(accountId: number, sendId: number): Promise<Array<{ minute: Date; delivered: number; failed: number }>> {
    return this.campaigns.outcomesByMinute(accountId, sendId);
  }

  async failureReasons(accountId: number, sendId: number): Promise<FailureReasonRow[]> {
    return this.campaigns.failureReasons(accountId, sendId);
  }
}
