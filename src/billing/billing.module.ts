import { Module } from '@nestjs/common';
import { CreditsService } from './credits.service';
import { LedgerRepository } from './ledger.repository';

@Module({ providers: [LedgerRepository, CreditsService], exports: [CreditsService] })
export class BillingModule {}
