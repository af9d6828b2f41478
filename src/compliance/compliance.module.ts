import { Module } from '@nestjs/common';
import { ComplianceAuditRepository } from './compliance-audit.repository';
import { ComplianceVerificationService } from './compliance-verification.service';

/** Operator checks over consent records and messages (`compliance:verify`); reads only. */
@Module({
  providers: [ComplianceAuditRepository, ComplianceVerificationService],
  exports: [ComplianceVerificationService],
})
export class ComplianceModule {}
