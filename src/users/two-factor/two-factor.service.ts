import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import { failure } from '../../common/errors/error-catalogue';
import { AddressCounter } from '../../common/redis/address-counter';
import { Clock } from '../../common/time/clock';
import { AppConfig } from '../../config/app-config';
import { Tx, UnitOfWork } from '../../database/unit-of-work';
import { operatorActor, type Actor } from '../actor';
import { normaliseEmail } from '../email';
import { UsersRepository } from '../users.repository';
import { AuditLogService } from '../audit-log.service';
import { looksLikeRecoveryCode, newRecoveryCodes, recoveryDigest } from './recovery-codes';
import { SecretBox } from './secret-box';
import { base32Encode, matchTotp, newTotpSecret, otpauthUri } from './totp';
import { TwoFactorRepository } from './two-factor.repository';

/** A QR code as one SVG path (a unit square per dark module) inside a 4-module quiet zone: plain text the page escapes like any value. */
export function qrPath(text: string): { size: number; path: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const QUIET = 4;
  let path = '';
  for (let y = 0; y < modules.size; y++) for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) path += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
  return { size: modules.size + 2 * QUIET, path };
}

/** Used when TWO_FACTOR_KEY is unset (development); start-up warns in production. */
const DEVELOPMENT_KEY = 'development key: set TWO_FACTOR_KEY in production!';
/** Wrong codes one user may type within the window before tries wait (a 6-digit code is 1 in 10^6 per try). */
export const TWO_FACTOR_MAX_FAILURES = 5;
export const TWO_FACTOR_WINDOW_MS = 15 * 60 * 1000;
export const ISSUER = 'SMS Platform';

export interface Enrolment {
  /** Base32, for typing into an app by hand. */
  secret: string;
  /** The otpauth:// URI as a QR code drawn here (no outside service sees the secret): an SVG path over a size × size grid. */
  qr: { size: number; path: string };
}

/**
 * Two-factor sign-in with TOTP (RFC 6238): enrolling (a secret shown once as a QR code and as text,
 * stored sealed; on once a code from it is confirmed, with ten single-use recovery codes shown once and
 * stored as digests), checking a code at sign-in (each code once; wrong codes limited per user), and
 * turning it off (by the user with a code, or reset by the owner or an operator). Every change is audited.
 */
@Injectable()
export class TwoFactorService {
  readonly box: SecretBox;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: TwoFactorRepository,
    private readonly audit: AuditLogService,
    private readonly counter: AddressCounter,
    private readonly clock: Clock,
    private readonly users: UsersRepository,
    config: AppConfig,
  ) {
    this.box = new SecretBox(config.twoFactorKey ?? DEVELOPMENT_KEY);
  }

  async isEnabled(userId: number): Promise<boolean> {
    return Boolean((await this.repo.stateOf(userId))?.enabledAt);
  }

  async status(userId: number): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const state = await this.repo.stateOf(userId);
    return { enabled: (state?.enabledAt ?? null) !== null, recoveryCodesLeft: state?.recoveryCodesLeft ?? 0 };
  }

  /** The secret being enrolled (kept across reloads of the page until confirmed), as text and QR code. */
  async enrolment(actor: Actor): Promise<Enrolment> {
    return this.uow.run(async (tx) => {
      const state = await this.repo.stateOf(actor.userId!, tx, true);
      if (!state) throw failure('notFound');
      if (state.enabledAt) throw failure('twoFactorAlreadyOn');
      let secret: Buffer;
      if (state.sealedSecret) secret = this.box.open(state.sealedSecret);
      else {
        secret = newTotpSecret();
        await this.repo.setPendingSecret(state.userId, this.box.seal(secret), tx);
      }
      return { secret: base32Encode(secret), qr: qrPath(otpauthUri(ISSUER, state.email, secret)) };
    });
  }

  /** Turns two-factor on with a code from the enrolled secret; answers the recovery codes (shown once). */
  async confirmEnrolment(actor: Actor, code: string): Promise<string[]> {
    return this.uow.run(async (tx) => {
      const state = await this.repo.stateOf(actor.userId!, tx, true);
      if (!state?.sealedSecret || state.enabledAt) throw failure('twoFactorAlreadyOn');
      const step = matchTotp(this.box.open(state.sealedSecret), code, this.clock.now(), null);
      if (step === null) throw failure('twoFactorCodeWrong');
      const codes = newRecoveryCodes();
      await this.repo.enable(state.userId, this.clock.now(), step, codes.map(recoveryDigest), tx);
      await this.audit.record(actor, 'two_factor.enabled', '', tx);
      return codes;
    });
  }

  /**
   * Checks a second factor at sign-in: a current TOTP code or an unused recovery code (used up now).
   * Wrong codes are counted per user; after TWO_FACTOR_MAX_FAILURES in the window, tries wait (429).
   */
  async verify(actor: Actor, typed: string): Promise<void> {
    const failuresKey = `2fa-failures:${actor.userId}`;
    const failures = await this.counter.peek(failuresKey);
    if (failures.count >= TWO_FACTOR_MAX_FAILURES) throw failure('twoFactorThrottled').retryAfter(failures.resetMs / 1000);
    const ok = await this.uow.run(async (tx) => {
      const state = await this.repo.stateOf(actor.userId!, tx);
      if (!state?.enabledAt || !state.sealedSecret) return false;
      const step = matchTotp(this.box.open(state.sealedSecret), typed, this.clock.now(), state.lastStep);
      if (step !== null) return this.repo.acceptStep(state.userId, step, tx);
      if (!looksLikeRecoveryCode(typed) || !(await this.repo.useRecoveryCode(state.userId, recoveryDigest(typed), tx))) return false;
      await this.audit.record(actor, 'two_factor.recovery_code_used', `${state.recoveryCodesLeft - 1} left`, tx);
      return true;
    });
    if (ok) return;
    await this.counter.add(failuresKey, TWO_FACTOR_WINDOW_MS);
    throw failure('twoFactorCodeWrong');
  }

  /** The user turns it off, proving it with a current code or a recovery code. */
  async disable(actor: Actor, typed: string): Promise<void> {
    await this.verify(actor, typed);
    await this.uow.run(async (tx) => {
      await this.repo.disable(actor.userId!, tx);
      await this.audit.record(actor, 'two_factor.disabled', '', tx);
    });
  }

  /** `user:reset-2fa`: an operator turns off a user's two-factor sign-in (they lost their phone and codes). */
  async resetByOperator(emailText: string): Promise<{ email: string; accountId: number; wasOn: boolean }> {
    const email = normaliseEmail(emailText);
    if (!email) throw failure('emailInvalid');
    const user = await this.users.findByEmail(email);
    if (!user) throw failure('userEmailNotFound', email);
    const wasOn = await this.isEnabled(user.id);
    await this.reset(operatorActor(user.accountId), user.id, user.email);
    return { email: user.email, accountId: user.accountId, wasOn };
  }

  /**
   * The owner (for another user of their account) or an operator turns a user's two-factor off; they set it
   * up again. Nobody resets their own: turning yours off takes a code (disable), so a stolen session cannot.
   */
  async reset(actor: Actor, userId: number, email: string, tx?: Tx): Promise<void> {
    if (actor.userId !== null && actor.userId === userId) throw failure('twoFactorResetOwn');
    const work = async (t: Tx) => {
      const state = await this.repo.stateOf(userId, t, true);
      if (!state || state.accountId !== actor.accountId) throw failure('userNotFound');
      await this.repo.disable(userId, t);
      await this.audit.record(actor, 'two_factor.reset', email, t);
    };
    if (tx) await work(tx);
    else await this.uow.run(work);
  }
}
