import { Injectable } from '@nestjs/common';
import { RedisService } from '../../common/redis/redis.service';
import { digestOf, newSecretToken } from '../secret-token';

/** How long the second step may take after the password was right. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * The proof between the two steps of a two-factor sign-in: a random token (in an HttpOnly cookie) whose
 * digest names the user in Redis for 5 minutes. Losing Redis only means signing in again.
 */
@Injectable()
export class SignInChallenges {
  constructor(private readonly redis: RedisService) {}

  async open(userId: number): Promise<string> {
    const token = newSecretToken();
    await this.redis.run((c) => c.set(this.key(token), String(userId), 'PX', CHALLENGE_TTL_MS));
    return token;
  }

  async userOf(token: string | undefined): Promise<number | null> {
    if (!token) return null;
    const value = await this.redis.run((c) => c.get(this.key(token)));
    return value === null ? null : Number(value);
  }

  async close(token: string): Promise<void> {
    await this.redis.run((c) => c.del(this.key(token)));
  }

  private key(token: string): string {
    return `sign-in-challenge:${digestOf(token).toString('hex')}`;
  }
}
