import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { IS_PUBLIC } from '../auth/public.decorator';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { TooManyRequestsError } from '../errors/domain-error';
import { ErrorText } from '../errors/error-catalogue';
import { InflightLimiter } from './inflight-limiter';

/**
 * Runs after BasicAuthGuard: takes one of the account's in-flight slots or answers 429. The slot is
 * released when the connection's response closes, which happens when the response ends, when an error
 * response is sent after the handler throws, and when the client disconnects mid-request.
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
    if (!slot) throw new TooManyRequestsError(ErrorText.tooManyConcurrentRequests);
    reply.raw.once('close', slot.release);
    if (request.raw.socket?.destroyed || reply.raw.writableFinished) slot.release();
    return true;
  }
}
