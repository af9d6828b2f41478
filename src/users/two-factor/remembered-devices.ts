import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { TwoFactorRepository } from './two-factor.repository';
import { TwoFactorService } from './two-factor.service';

/** The longest a browser may skip the code (issue 33: no longer than 30 days). */
export const REMEMBER_DEVICE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * "Remember this device": a cookie `userId.expiresAt.enabledAt.signature` signed with TWO_FACTOR_KEY. It
 * names when two-factor was turned on, so turning it off, a reset, or a new enrolment ends every
 * remembered device at once; nothing is stored per device.
 */
@Injectable()
export class RememberedDevices {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly repo: TwoFactorRepository,
    private readonly clock: Clock,
  ) {}

  async issue(userId: number): Promise<string> {
    const state = await this.repo.stateOf(userId);
    const payload = `${userId}.${this.clock.now().getTime() + REMEMBER_DEVICE_MS}.${state?.enabledAt?.getTime() ?? 0}`;
    return `${payload}.${this.twoFactor.box.sign(payload)}`;
  }

  async recognises(userId: number, cookie: string | undefined): Promise<boolean> {
    const parts = cookie?.split('.') ?? [];
    if (parts.length !== 4) return false;
    const [user, expires, enabledAt, signature] = parts;
    if (!this.twoFactor.box.verify(`${user}.${expires}.${enabledAt}`, signature)) return false;
    if (Number(user) !== userId || Number(expires) <= this.clock.now().getTime()) return false;
    const state = await this.repo.stateOf(userId);
    return state?.enabledAt?.getTime() === Number(enabledAt);
  }
}
