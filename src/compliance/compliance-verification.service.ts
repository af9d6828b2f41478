import { Injectable } from '@nestjs/common';
import { ComplianceViolationText } from '../common/errors/error-catalogue';
import { UnitOfWork } from '../database/unit-of-work';
import { ComplianceAuditRepository, OptedOutMessage, REPORT_LIMIT } from './compliance-audit.repository';

export const COMPLIANCE_CHECKS = ['claimed_after_opt_out', 'list_recipient_opted_out'] as const;
export type ComplianceCheck = (typeof COMPLIANCE_CHECKS)[number];

export interface ComplianceViolation {
  check: ComplianceCheck;
  account_id: number;
  send_id: number;
  message_id: string;
  number: string;
  opted_out_at: string;
  problem: string;
}

/** A message sent to an opted-out number by a send that asked to ignore unsubscribes (an opt-out confirmation, say). */
export interface IgnoredUnsubscribe {
  account_id: number;
  send_id: number;
  kind: string;
  message_id: string;
  number: string;
  opted_out_at: string;
}

export interface ComplianceReport {
  ok: boolean;
  accounts_checked: number;
  checks: readonly ComplianceCheck[];
  violations: ComplianceViolation[];
  /** Not violations: the sends chose to ignore unsubscribes. */
  ignored_unsubscribes: IgnoredUnsubscribe[];
  /** Checks (or `ignored_unsubscribes`) that found more than they report. */
  truncated: string[];
}

const iso = (d: Date) => d.toISOString();

/**
 * `compliance:verify`: proves, for every account or one, on one snapshot, that no message was claimed
 * for dispatch after its number's opt-out (unless its send ignored unsubscribes: those are listed), and
 * that no list send addressed a number opted out when it was accepted.
 */
@Injectable()
export class ComplianceVerificationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly audit: ComplianceAuditRepository,
  ) {}

  verify(accountId: number | null): Promise<ComplianceReport> {
    return this.uow.run(async (tx) => {
      await this.audit.useSnapshot(tx);
      const claimed = await this.audit.claimedWhileOptedOut(accountId, false, tx);
      const ignored = await this.audit.claimedWhileOptedOut(accountId, true, tx);
      const listed = await this.audit.listRecipientsOptedOut(accountId, tx);
      const found: Record<ComplianceCheck, ComplianceViolation[]> = {
        claimed_after_opt_out: claimed.map((r) => ({
          ...violation('claimed_after_opt_out', r),
          problem: ComplianceViolationText.claimedAfterOptOut(r.messageId, r.number, iso(r.optedOutAt), iso(r.at)),
        })),
        list_recipient_opted_out: listed.map((r) => ({
          ...violation('list_recipient_opted_out', r),
          problem: ComplianceViolationText.listRecipientOptedOut(r.sendId, r.messageId, r.number, iso(r.optedOutAt)),
        })),
      };
      const violations = COMPLIANCE_CHECKS.flatMap((check) => found[check]);
      return {
        ok: violations.length === 0,
        accounts_checked: await this.audit.accountsChecked(accountId, tx),
        checks: COMPLIANCE_CHECKS,
        violations,
        ignored_unsubscribes: ignored.map((r) => ({
          account_id: r.accountId,
          send_id: r.sendId,
          kind: r.kind,
          message_id: r.messageId,
          number: r.number,
          opted_out_at: iso(r.optedOutAt),
        })),
        truncated: [...COMPLIANCE_CHECKS.filter((check) => found[check].length >= REPORT_LIMIT), ...(ignored.length >= REPORT_LIMIT ? ['ignored_unsubscribes'] : [])],
      };
    });
  }
}

function violation(check: ComplianceCheck, r: OptedOutMessage): Omit<ComplianceViolation, 'problem'> {
  return { check, account_id: r.accountId, send_id: r.sendId, message_id: r.messageId, number: r.number, opted_out_at: iso(r.optedOutAt) };
}
