import type { AppConfig } from '../config/app-config';
import type { BrakeLimits, BrakeWindow } from './sending-brake.repository';

const HOUR_MS = 3_600_000;

/** The clock hour now falls in, and how far into it now is (the last hour is estimated from two clock hours). */
export function brakeWindow(now: Date): BrakeWindow {
  const hourStart = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { hourStart: new Date(hourStart), fraction: (now.getTime() - hourStart) / HOUR_MS };
}

/** The settings as the repository's parameters: the baseline halves every half-life. */
export function brakeLimits(config: Pick<AppConfig, 'sendingBrakeAllowance' | 'sendingBrakeMultiplier' | 'sendingBrakeHalfLifeHours'>): BrakeLimits {
  return { allowance: config.sendingBrakeAllowance, multiplier: config.sendingBrakeMultiplier, decayPerHour: Math.pow(0.5, 1 / config.sendingBrakeHalfLifeHours) };
}

/**
 * The same rule as the repository's SQL, for one account's counts (documents and unit-tests it): whether
 * `count` more messages fit, given the stored hour, its count, the previous hour's and the baseline.
 */
export function fits(
  stored: { hourStart: Date; hourCount: number; previousCount: number; baseline: number },
  count: number,
  window: BrakeWindow,
  limits: BrakeLimits,
): { fits: boolean; lastHour: number; limit: number } {
  const gap = Math.max(0, Math.round((window.hourStart.getTime() - stored.hourStart.getTime()) / HOUR_MS));
  const current = gap === 0 ? stored.hourCount : 0;
  const previous = gap === 0 ? stored.previousCount : gap === 1 ? stored.hourCount : 0;
  const baseline = gap === 0 ? stored.baseline : Math.max(stored.baseline * Math.pow(limits.decayPerHour, gap), stored.hourCount);
  const lastHour = previous * (1 - window.fraction) + current;
  const limit = Math.max(limits.allowance, limits.multiplier * baseline);
  return { fits: lastHour + count <= limit, lastHour, limit };
}
