import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { from, mergeMap, Observable } from 'rxjs';
import { ApiKeysService } from '../accounts/api-keys.service';
import type { AuthenticatedRequest } from '../common/auth/authenticated-request';
import { failure } from '../common/errors/error-catalogue';
import { Idempotent } from '../idempotency/idempotency.interceptor';

/**
 * Answers 403 when the calling key's purchases switch is off, before the body is validated: a key that
 * may not buy learns that first, whatever it sent. An interceptor rather than a guard because Nest runs
 * guards before interceptors, and the purchase operations answer a missing Idempotency-Key first and
 * replay a stored response before anything else (both interceptors); this one runs after them and
 * before the validation pipe.
 */
@Injectable()
export class PurchasesSwitch implements NestInterceptor {
  constructor(private readonly apiKeys: ApiKeysService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
    if (!caller) return next.handle();
    return from(this.apiKeys.purchasesEnabled(caller.accountId, caller.apiKeyId)).pipe(
      mergeMap((enabled) => {
        if (!enabled) throw failure('purchasesNotEnabled');
        return next.handle();
      }),
    );
  }
}

/** A purchase operation: Idempotency-Key required (and replayed), then the key's purchases switch, then validation. */
export function PurchaseOperation(): MethodDecorator {
  return applyDecorators(Idempotent({ required: true }), UseInterceptors(PurchasesSwitch));
}
