import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { SendersService } from '../senders/senders.service';
import type { Actor } from '../users/actor';
import { AuditLogService } from '../users/audit-log.service';
import type { FreeNumberClaim } from './free-number-claim.entity';
import { NumbersRepository } from './numbers.repository';
import { AddressProblem, checkServiceAddress, formatServiceAddress } from './service-address';

/**
 * The free dedicated number (interface: "the free dedicated number has first been claimed on the Sender
 * IDs page, which records the service address"): one number from the inventory per account, ever, made
 * an active `dedicated` sender at once. Buying more numbers (the purchases issue) requires this claim.
 */
@Injectable()
export class FreeNumberService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly numbers: NumbersRepository,
    private readonly senders: SendersService,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims it for the service address (a line or fields). Claims of one account are taken one at a time
   * (the first wins, the rest 409; the claims table's primary key holds it even without that lock);
   * accounts racing get different numbers (SKIP LOCKED), each number going to one account.
   */
  async claim(actor: Actor, serviceAddress: unknown): Promise<FreeNumberClaim> {
    const checked = checkServiceAddress(serviceAddress);
    if (!checked.ok) throw addressFailure(checked.problem);
    return this.uow.run(async (tx) => {
      await this.numbers.lockAccountClaims(actor.accountId, tx);
      if (await this.numbers.claimOf(actor.accountId, tx)) throw failure('freeNumberAlreadyClaimed');
      const now = this.clock.now();
      const number = await this.numbers.assignNext(actor.accountId, 'free', now, tx);
      if (!number) throw failure('noDedicatedNumberAvailable');
      const claim: FreeNumberClaim = { accountId: actor.accountId, number, ...checked.address, userId: actor.userId, apiKeyId: actor.apiKeyId ?? null, claimedAt: now };
      if (!(await this.numbers.insertClaim(claim, tx))) throw failure('freeNumberAlreadyClaimed');
      await this.senders.activate(actor.accountId, number, 'dedicated', '', tx);
      await this.audit.record(actor, 'dedicated_number.free_claimed', `${number} for ${formatServiceAddress(checked.address)}`, tx);
      return claim;
    });
  }

  /** The account's free number and its service address, or null while unclaimed. */
  async claimOf(accountId: number): Promise<FreeNumberClaim | null> {
    return this.numbers.claimOf(accountId);
  }

  async available(): Promise<number> {
    return this.numbers.availableCount();
  }
}

function addressFailure(problem: AddressProblem): DomainError {
  switch (problem) {
    case 'missing':
      return failure('required', 'service_address');
    case 'type':
      return failure('serviceAddressType');
    case 'too_long':
      return failure('serviceAddressTooLong');
    case 'street':
      return failure('serviceAddressStreet');
    case 'state':
      return failure('serviceAddressState');
    case 'postcode':
      return failure('serviceAddressPostcode');
  }
}
