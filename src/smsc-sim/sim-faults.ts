/**
 * The faults an SMSC simulator injects on demand, so tests and benchmarks can play a carrier that goes
 * wrong: binds refused, a share of submit_sm answered with an error status, receipts for every part, the
 * first part only or none. Each simulator owns one (nothing here is shared between simulators).
 */
import { ESME_ROK } from '../smpp/commands';

/** Which parts of a message get a receipt: every part, only the first part of a concatenated message, or none. */
export type ReceiptMode = 'every' | 'first' | 'none';
export const RECEIPT_MODES: readonly ReceiptMode[] = ['every', 'first', 'none'];

/** A share (0..1) of submit_sm answered with `status` instead of ESME_ROK. */
export interface SubmitErrorShare {
  status: number;
  share: number;
}

export interface FaultSettings {
  /** Status every bind is answered with (the session is then closed); 0 accepts binds. */
  refuseBindsWith: number;
  submitErrors: SubmitErrorShare[];
  receipts: ReceiptMode;
  /** submit_sm answered with these statuses next, before any share applies. */
  queuedRefusals: number[];
}

const MILLION = 1_000_000;
const IEI_CONCAT_8BIT = 0x00;
const IEI_CONCAT_16BIT = 0x08;

export class SimFaults {
  refuseBindsWith: number = ESME_ROK;
  receipts: ReceiptMode = 'every';
  private queued: number[] = [];
  private shares: SubmitErrorShare[] = [];
  /**
   * The shares and the rest (accepted, status undefined) in millionths, each with its credit, for a smooth
   * weighted round robin: every submit adds each weight to its credit and takes the biggest credit, which
   * gives back a million. Integers, so ten 0.1 shares make exactly a million.
   */
  private picks: Array<{ status: number | undefined; perMillion: number; credit: number }> = [];

  /**
   * The error status to answer the next submit_sm with, or undefined to accept it. Shares are spread
   * evenly and exactly (a 0.3 share refuses 30 of every 100 submits), not drawn at random, so a test
   * can count on them.
   */
  nextSubmitRefusal(): number | undefined {
    if (this.queued.length > 0) return this.queued.shift();
    if (this.picks.length === 0) return undefined;
    let best = this.picks[0];
    for (const p of this.picks) {
      p.credit += p.perMillion;
      if (p.credit > best.credit) best = p;
    }
    best.credit -= MILLION;
    return best.status;
  }

  /** Answers the next n submit_sm with `status` (after any already queued). */
  queueRefusals(n: number, status: number): void {
    for (let i = 0; i < n; i++) this.queued.push(status);
  }

  /** Sets the share of submits answered with `status` (0 removes it). Throws RangeError when the shares would pass 1. */
  setSubmitError(status: number, share: number): void {
    if (!isErrorStatus(status)) throw new RangeError('status must be a non-zero 32-bit command_status');
    if (!(share >= 0 && share <= 1)) throw new RangeError('share must be between 0 and 1');
    const others = this.shares.filter((s) => s.status !== status);
    const total = others.reduce((sum, s) => sum + s.share, share);
    if (total > 1 + 1e-9) throw new RangeError(`the shares of all statuses would add up to ${total}, more than 1`);
    this.setShares(share === 0 ? others : [...others, { status, share }]);
  }

  private setShares(shares: SubmitErrorShare[]): void {
    this.shares = shares;
    if (shares.length === 0) {
      this.picks = [];
      return;
    }
    const errors = shares.map((s) => weighted(s.status, s.share));
    const accepted = MILLION - errors.reduce((sum, p) => sum + p.perMillion, 0);
    this.picks = [weighted(undefined, 0), ...errors];
    this.picks[0].perMillion = Math.max(0, accepted);
  }

  refuseBinds(status: number): void {
    if (!Number.isInteger(status) || status < 0 || status > 0xffffffff) throw new RangeError('status must be a 32-bit command_status (0 accepts binds)');
    this.refuseBindsWith = status;
  }

  setReceipts(mode: ReceiptMode): void {
    if (!RECEIPT_MODES.includes(mode)) throw new RangeError(`receipts must be one of ${RECEIPT_MODES.join(', ')}`);
    this.receipts = mode;
  }

  /** Whether an accepted part with this user data header gets its receipt under the receipt mode. */
  receiptFor(udh: Buffer | null): boolean {
    if (this.receipts === 'every') return true;
    if (this.receipts === 'none') return false;
    return concatenatedPartNumber(udh) <= 1;
  }

  clear(): void {
    this.refuseBindsWith = ESME_ROK;
    this.receipts = 'every';
    this.queued = [];
    this.setShares([]);
  }

  settings(): FaultSettings {
    return {
      refuseBindsWith: this.refuseBindsWith,
      submitErrors: this.shares.map(({ status, share }) => ({ status, share })),
      receipts: this.receipts,
      queuedRefusals: [...this.queued],
    };
  }
}

function weighted(status: number | undefined, share: number) {
  return { status, perMillion: Math.round(share * MILLION), credit: 0 };
}

function isErrorStatus(status: number): boolean {
  return Number.isInteger(status) && status > 0 && status <= 0xffffffff;
}

/**
 * The 1-based part number in a concatenation UDH (8- or 16-bit reference, 3GPP TS 23.040 §9.2.3.24.1/.8),
 * or 1 when the message is not concatenated.
 */
export function concatenatedPartNumber(udh: Buffer | null): number {
  if (!udh) return 1;
  let i = 1;
  while (i + 1 < udh.length) {
    const iei = udh[i];
    const length = udh[i + 1];
    if (iei === IEI_CONCAT_8BIT && length === 3 && i + 4 < udh.length) return udh[i + 4];
    if (iei === IEI_CONCAT_16BIT && length === 4 && i + 5 < udh.length) return udh[i + 5];
    i += 2 + length;
  }
  return 1;
}
