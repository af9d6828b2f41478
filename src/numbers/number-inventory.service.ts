import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import type { FreeNumberClaim } from './free-number-claim.entity';
import { NumbersRepository } from './numbers.repository';

/** The inventory as the purchases domain uses it: list what is for sale, sell one number once, take it back. */
@Injectable()
export class NumberInventoryService {
  constructor(private readonly numbers: NumbersRepository) {}

  listAvailable(contains: string, limit: number): Promise<Array<{ number: string; annualPriceCents: number }>> {
    return this.numbers.listAvailable(contains, limit);
  }

  /** The number's yearly price ex GST in cents, now assigned to the account; null when it is not for sale. */
  reserve(accountId: number, number: string, at: Date, tx: Tx): Promise<number | null> {
    return this.numbers.reserve(accountId, number, at, tx);
  }

  release(accountId: number, number: string, tx: Tx): Promise<boolean> {
    return this.numbers.release(accountId, number, tx);
  }

  freeClaimOf(accountId: number, tx?: Tx): Promise<FreeNumberClaim | null> {
    return this.numbers.claimOf(accountId, tx);
  }
  /** The number's current yearly price ex GST in cents (renewals charge it). */
  priceOf(number: string, tx?: Tx): Promise<number | null> {
    return this.numbers.priceOf(number, tx);
  }
}
