import { applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiProperty, ApiResponse } from '@nestjs/swagger';
import { ErrorText, StatusDescription } from '../errors/error-catalogue';

export class ErrorEnvelopeDto {
  @ApiProperty({ example: ErrorText.invalidCredentials })
  error: string;
}

/** Documents an authenticated endpoint's error statuses, each answered with the `{"error": "..."}` envelope. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(ApiBasicAuth('basic'), ...statuses.map((status) => ApiResponse({ status, description: StatusDescription[status] ?? 'Error', type: ErrorEnvelopeDto })));
}
