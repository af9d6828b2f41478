import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { failure } from '../errors/error-catalogue';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { IS_PUBLIC } from '../auth/public.decorator';
import type { AuthenticatedRequest } from '../auth/authenticated-request';

import { InflightLimiter } from './inflight-limiter';

/**
 * Runs after BasicAuthGuard: takes one of the account's in-flight slots or answers 429. The slot is
 * released just before the response is written (the onSend hook in bootstrap, for successes and for
 * errors after the handler throws), so a client that retries as soon as it has its answer finds the
 * slot free; and when the connection closes, which covers a client disconnecting mid-request.
 */
@Injectable()
export class ConcurrencyGuard implements CanActivate {
  constructor(
    private readonly limiter: InflightLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const caller = request.caller;
    if (!caller) return false;
    const slot = await this.limiter.tryAcquire(caller.accountId);
    if (!slot) throw failure('tooManyConcurrentRequests');
    request.inflightSlot = slot;
    reply.raw.once('close', () => void slot.release());
    if (request.raw.socket?.destroyed) await slot.release();
    return true;
  }
}
