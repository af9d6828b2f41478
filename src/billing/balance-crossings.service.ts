import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { BalanceCrossingsRepository, UnhandledCrossing } from './balance-crossings.repository';

/** The recorded balance crossings, for what handles them (auto-recharge, the low-balance warning) and the Billing page. */
@Injectable()
export class BalanceCrossingsService {
  constructor(private readonly repo: BalanceCrossingsRepository) {}

  unhandled(id: number): Promise<UnhandledCrossing | null> {
    return this.repo.unhandled(id);
  }

  unhandledBefore(before: Date, limit: number): Promise<number[]> {
    return this.repo.unhandledBefore(before, limit);
  }

  markHandled(id: number, outcome: string, at: Date, tx?: Tx): Promise<boolean> {
    return this.repo.markHandled(id, outcome, at, tx);
  }

  latest(accountId: number, limit: number) {
    return this.repo.latest(accountId, limit);
  }
}
