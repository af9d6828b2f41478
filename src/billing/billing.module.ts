import { Module } from '@nestjs/common';
import { CreditsService } from './credits.service';
import { LedgerAuditRepository } from './ledger-audit.repository';
import { LedgerRepository } from './ledger.repository';
import { LedgerVerificationService } from './ledger-verification.service';

@Module({ providers: [LedgerRepository, LedgerAuditRepository, CreditsService, LedgerVerificationService], exports: [CreditsService, LedgerVerificationService] })
export class BillingModule {}
