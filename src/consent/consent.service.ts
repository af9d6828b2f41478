import { Injectable } from '@nestjs/common';
import { Page, PageResult, pageResult } from '../common/http/pagination';
import { normaliseOrThrow } from '../common/phone';
import { parseDayRange } from '../common/time/date-range';
import { Tx } from '../database/unit-of-work';
import type { ConsentChange, ConsentSource } from './consent-record.entity';
import { consentCsv, ConsentView, toConsentView } from './consent.mapper';
import { ConsentEvidence, ConsentFilter, ConsentRepository, ConsentRow } from './consent.repository';

/** Rows one CSV export holds at most (a period longer than that is exported in parts). */
export const CONSENT_EXPORT_CAP = 100_000;

/**
 * The evidence of consent: every opt-in and opt-out of a number with an account, appended in the
 * transaction that changes its standing, never changed afterwards (the table refuses it).
 */
@Injectable()
export class ConsentService {
  constructor(private readonly repo: ConsentRepository) {}

  async record(accountId: number, number: string, change: ConsentChange, source: ConsentSource, evidence: ConsentEvidence, tx: Tx): Promise<void> {
    await this.repo.append(accountId, number, change, source, evidence, tx);
  }

  /** The same change for many numbers (an import with a stated consent source), set-based. */
  async recordMany(accountId: number, numbers: string[], change: ConsentChange, source: ConsentSource, evidence: ConsentEvidence, tx: Tx): Promise<void> {
    await this.repo.appendMany(accountId, numbers, change, source, evidence, tx);
  }

  async page(accountId: number, query: { number?: string; from?: string; to?: string }, page: Page): Promise<PageResult<ConsentView>> {
    const { total, rows } = await this.repo.page(accountId, this.filter(query), page);
    return pageResult(page, total, rows.map(toConsentView));
  }

  async csv(accountId: number, query: { number?: string; from?: string; to?: string }): Promise<string> {
    return consentCsv(await this.repo.all(accountId, this.filter(query), CONSENT_EXPORT_CAP));
  }

  /** A number's records, oldest first (the inbox thread shows them); at most `cap`. */
  async forNumber(accountId: number, number: string, cap: number): Promise<ConsentRow[]> {
    return this.repo.all(accountId, { number }, cap);
  }

  private filter(query: { number?: string; from?: string; to?: string }): ConsentFilter {
    const filter: ConsentFilter = { ...parseDayRange(query.from, query.to) };
    if (query.number !== undefined && query.number !== '') filter.number = normaliseOrThrow(query.number);
    return filter;
  }
}
