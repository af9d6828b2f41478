import { applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiProperty, ApiResponse } from '@nestjs/swagger';

export class ErrorEnvelopeDto {
  @ApiProperty({ example: 'Invalid API username or password' })
  error: string;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or wrong credentials',
  402: 'Payment declined',
  403: 'Not permitted',
  404: 'Not found',
  405: 'Method not allowed for this path',
  409: 'Conflict',
  413: 'Request body is too large',
  422: 'Idempotency-Key reused with a different body',
  429: 'Too many concurrent requests',
  500: 'Failed, nothing changed',
  503: 'A dependency is unavailable; retry after Retry-After seconds',
};

/** Documents an authenticated endpoint's error statuses, each answered with the `{"error": "..."}` envelope. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ApiBasicAuth('basic'),
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: ErrorEnvelopeDto })),
  );
}
