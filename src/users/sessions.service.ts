import { Injectable } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { Tx } from '../database/unit-of-work';
import { digestOf, newSecretToken } from './secret-token';
import { sessionExpired, sessionNeedsTouch, SESSION_TOUCH_EVERY_MS } from './session-expiry';
import { SessionRecord, SessionsRepository } from './sessions.repository';

export type SignedInUser = SessionRecord;

/**
 * Server-side sessions: the browser holds a random token, PostgreSQL its SHA-256 (a database leak
 * gives no usable cookie). Expiry (12 h idle, 7 days absolute) is judged against the injectable clock.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  async create(userId: number, ip: string, tx?: Tx): Promise<{ token: string; sessionId: number }> {
    const token = newSecretToken();
    const sessionId = await this.sessions.insert(userId, digestOf(token), this.clock.now(), ip, tx);
    return { token, sessionId };
  }

  /** The signed-in user for a cookie's token, or null (unknown, or expired, which also deletes it). */
  async resolve(token: string | undefined): Promise<SignedInUser | null> {
    if (!token) return null;
    const session = await this.sessions.findByToken(digestOf(token));
    if (!session) return null;
    const now = this.clock.now();
    if (sessionExpired(session, now)) {
      await this.sessions.delete(session.sessionId);
      return null;
    }
    if (sessionNeedsTouch(session, now)) await this.sessions.touch(session.sessionId, now, new Date(now.getTime() - SESSION_TOUCH_EVERY_MS));
    return session;
  }

  /** Signs this browser out; who it was, for the audit log (null when the session was already gone). */
  async end(token: string): Promise<{ userId: number; accountId: number; email: string } | null> {
    return this.sessions.deleteByToken(digestOf(token));
  }

  /** Ends the user's sessions other than `keepSessionId` (all of them when null). */
  async endForUser(userId: number, keepSessionId: number | null, tx: Tx): Promise<number> {
    return this.sessions.deleteForUser(userId, keepSessionId, tx);
  }
}
