import { Injectable } from '@nestjs/common';
import { LedgerViolationText } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { addBuckets, bucketStart, uuidAt } from '../database/partitioning/partition-bounds';
import { UnitOfWork } from '../database/unit-of-work';
import { LedgerAuditRepository, REPORT_LIMIT, RefundOfWrongMessage, RetentionHorizon } from './ledger-audit.repository';
import { hundredthsToFixed } from './money';

export const LEDGER_CHECKS = ['balance', 'send_debit', 'orphan_debit', 'refund_lines', 'refund_of_wrong_message', 'refunded_and_submitted', 'cancelled_not_refunded'] as const;
export type LedgerCheck = (typeof LEDGER_CHECKS)[number];

export interface LedgerViolation {
  check: LedgerCheck;
  account_id: number;
  problem: string;
  send_id?: number;
  message_id?: string;
  ledger_entry_id?: number;
}

export interface LedgerReport {
  ok: boolean;
  accounts_checked: number;
  checks: readonly LedgerCheck[];
  violations: LedgerViolation[];
  /** Checks that found more than they report. */
  truncated: LedgerCheck[];
}

const credits = hundredthsToFixed;

/**
 * `ledger:verify`: proves the money is right for every account (or one). The balance is the sum of the
 * ledger; every send is debited exactly once for its successful messages; every refund names the
 * cancelled messages it pays back and nothing else; no refunded message reached the carrier; no
 * cancelled paid message went unrefunded. All checks read one snapshot.
 */
@Injectable()
export class LedgerVerificationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly audit: LedgerAuditRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The start of the oldest month MESSAGE_RETENTION_MONTHS keeps (the partition maintenance drops the months before it). */
  private retentionHorizon(): RetentionHorizon {
    const firstKeptAt = addBuckets(bucketStart(this.clock.now(), 'month'), 'month', -this.config.messageRetentionMonths);
    return { firstKeptAt, firstKeptId: uuidAt(firstKeptAt.getTime()) };
  }

  verify(accountId: number | null): Promise<LedgerReport> {
    return this.uow.run(async (tx) => {
      await this.audit.useSnapshot(tx);
      const horizon = this.retentionHorizon();
      const found: Record<LedgerCheck, LedgerViolation[]> = {
        balance: (await this.audit.balanceMismatches(accountId, tx)).map((r) => ({
          check: 'balance',
          account_id: r.accountId,
          problem: LedgerViolationText.balance(credits(r.balance), credits(r.ledgerTotal)),
        })),
        send_debit: (await this.audit.sendDebitMismatches(accountId, horizon, tx)).map((r) => ({
          check: 'send_debit',
          account_id: r.accountId,
          send_id: r.sendId,
          problem:
            r.sendTotal !== r.messagesCost
              ? LedgerViolationText.sendTotal(r.sendId, credits(r.sendTotal), credits(r.messagesCost))
              : LedgerViolationText.sendDebit(r.sendId, r.debits, credits(r.debited), credits(r.isTest ? 0 : r.messagesCost)),
        })),
        orphan_debit: (await this.audit.orphanDebits(accountId, tx)).map((r) => ({
          check: 'orphan_debit',
          account_id: r.accountId,
          ledger_entry_id: r.ledgerEntryId,
          problem: LedgerViolationText.orphanDebit(r.ledgerEntryId, r.reference),
        })),
        refund_lines: (await this.audit.refundLinesMismatches(accountId, tx)).map((r) => ({
          check: 'refund_lines',
          account_id: r.accountId,
          ledger_entry_id: r.ledgerEntryId,
          problem: LedgerViolationText.refundLines(r.ledgerEntryId, credits(r.amount), credits(r.linesTotal)),
        })),
        refund_of_wrong_message: (await this.audit.refundsOfWrongMessages(accountId, horizon, tx)).map((r) => ({
          check: 'refund_of_wrong_message',
          account_id: r.accountId,
          ledger_entry_id: r.ledgerEntryId,
          message_id: r.messageId,
          problem: LedgerViolationText.refundOfWrongMessage(r.ledgerEntryId, r.messageId, whyWrong(r)),
        })),
        refunded_and_submitted: (await this.audit.refundedAndSubmitted(accountId, tx)).map((r) => ({
          check: 'refunded_and_submitted',
          account_id: r.accountId,
          message_id: r.messageId,
          problem: LedgerViolationText.refundedAndSubmitted(r.messageId, r.parts),
        })),
        cancelled_not_refunded: (await this.audit.cancelledNotRefunded(accountId, tx)).map((r) => ({
          check: 'cancelled_not_refunded',
          account_id: r.accountId,
          message_id: r.messageId,
          problem: LedgerViolationText.cancelledNotRefunded(r.messageId, credits(r.cost)),
        })),
      };
      const violations = LEDGER_CHECKS.flatMap((check) => found[check]);
      return {
        ok: violations.length === 0,
        accounts_checked: await this.audit.accountsChecked(accountId, tx),
        checks: LEDGER_CHECKS,
        violations,
        truncated: LEDGER_CHECKS.filter((check) => found[check].length >= REPORT_LIMIT),
      };
    });
  }
}

function whyWrong(r: RefundOfWrongMessage): string {
  if (r.messageStatus === null) return 'does not exist';
  if (r.messageAccountId !== r.accountId) return `belongs to account ${r.messageAccountId}`;
  if (r.messageIsTest) return 'is a test message (never charged)';
  if (r.messageStatus !== 'cancelled') return `is ${r.messageStatus}, not cancelled`;
  return `cost ${credits(r.messageCost ?? 0)}, not ${credits(r.amount)}`;
}
