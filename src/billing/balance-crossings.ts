import type { CrossingKind } from './balance-crossing.entity';

export interface BalanceThresholds {
  /** Hundredths; null: off. */
  recharge: number | null;
  warning: number | null;
}

/**
 * The thresholds a debit crossed: the balance was at or above one before and is below it after. Debits
 * of one account are serialised on its row, so of many concurrent sends exactly one sees each crossing.
 */
export function crossedThresholds(before: number, after: number, thresholds: BalanceThresholds): Array<{ kind: CrossingKind; threshold: number }> {
  const crossed: Array<{ kind: CrossingKind; threshold: number }> = [];
  if (thresholds.recharge !== null && before >= thresholds.recharge && after < thresholds.recharge) crossed.push({ kind: 'recharge', threshold: thresholds.recharge });
  if (thresholds.warning !== null && before >= thresholds.warning && after < thresholds.warning) crossed.push({ kind: 'warning', threshold: thresholds.warning });
  return crossed;
}
