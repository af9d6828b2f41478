import { applyDecorators, CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../common/auth/authenticated-request';
import { failure, StatusDescription } from '../common/errors/error-catalogue';
import { ErrorEnvelopeDto } from '../common/http/api-errors.decorator';
import { IdempotencyClaim, IdempotencyKeyTaken, IdempotencyService, Replay } from './idempotency.service';

type IdempotentRequest = AuthenticatedRequest & { idempotency?: IdempotencyClaim };

/**
 * Replays the stored response of a repeated Idempotency-Key (with `Idempotency-Replay: true`) or
 * hands the key to the operation, which claims it inside its own transaction. A request that lost the
 * race for a key waits for the winner's commit in the database, then replays its response.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '' || !request.caller) return next.handle();
    const operation = `${context.getClass().name}.${context.getHandler().name}`;
    const claim = this.idempotency.prepare(request.caller.apiKeyId, key, operation, request.body);
    const replay = (stored: Replay) => {
      reply.header('Idempotency-Replay', 'true').type(stored.contentType).status(stored.status);
      return stored.body;
    };
    return from(this.idempotency.findReplay(claim)).pipe(
      mergeMap((stored) => {
        if (stored) return of(replay(stored));
        request.idempotency = claim;
        return next.handle().pipe(
          catchError((err: unknown) => {
            if (!(err instanceof IdempotencyKeyTaken)) return throwError(() => err);
            return from(this.idempotency.findReplay(claim)).pipe(
              mergeMap((winner) => (winner ? of(replay(winner)) : throwError(() => new Error('idempotency record vanished after a concurrent claim')))),
            );
          }),
        );
      }),
    );
  }
}

/** The Idempotency-Key claim of this request, if it carried one. */
export const IdempotencyKey = createParamDecorator((_: unknown, context: ExecutionContext): IdempotencyClaim | undefined => {
  return context.switchToHttp().getRequest<IdempotentRequest>().idempotency;
});

/** Refuses a request without an Idempotency-Key (the purchase operations: supplement, Purchases). */
@Injectable()
export class IdempotencyKeyRequired implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const header = context.switchToHttp().getRequest<IdempotentRequest>().headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '') throw failure('idempotencyKeyRequired');
    return next.handle();
  }
}

/** Enables Idempotency-Key handling on a route and documents it; `required`: a request without one is 400. */
export function Idempotent(options: { required?: boolean } = {}) {
  return applyDecorators(
    UseInterceptors(...(options.required ? [IdempotencyKeyRequired] : []), IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: options.required === true,
      description:
        'One key per logical request, reused on each retry: the same key and body within 24 h replays the original response (Idempotency-Replay: true); the same key with another body is 422. Keys are scoped to the API key.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      example: 'order-1001',
    }),
    ApiResponse({ status: 422, type: ErrorEnvelopeDto, description: StatusDescription[422] }),
  );
}
