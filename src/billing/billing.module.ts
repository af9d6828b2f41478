import { Module } from '@nestjs/common';
import { BalanceCrossingsRepository } from './balance-crossings.repository';
import { BalanceCrossingsService } from './balance-crossings.service';
import { CreditsService } from './credits.service';
import { LedgerAuditRepository } from './ledger-audit.repository';
import { LedgerRepository } from './ledger.repository';
import { LedgerVerificationService } from './ledger-verification.service';

@Module({
  providers: [LedgerRepository, LedgerAuditRepository, BalanceCrossingsRepository, CreditsService, BalanceCrossingsService, LedgerVerificationService],
  exports: [CreditsService, BalanceCrossingsService, LedgerVerificationService],
})
export class BillingModule {}
