import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** The query of GET /simple/send-sms: one message, given as POST /v1/messages would take it. */
export interface SimpleSendQuery {
  to?: unknown;
  message?: unknown;
  sender?: unknown;
  custom_ref?: unknown;
}

/**
 * Documents the query parameters one by one. They are not validated as a DTO: each is checked as the
 * field of a batch entry, so a bad one gives the same per-message result as in POST /v1/messages.
 */
export const ApiSimpleSendQuery = () =>
  applyDecorators(
    ApiQuery({ name: 'to', required: true, description: 'Australian mobile, local or international form', example: '0412345678', schema: { type: 'string' } }),
    ApiQuery({
      name: 'message',
      required: true,
      description: 'Text; {first_name} etc. take the matching contact’s fields, {optout} adds opt-out text',
      example: 'Your order is ready',
      schema: { type: 'string' },
    }),
    ApiQuery({ name: 'sender', required: true, description: 'An active sender of the account; numbers in any form', example: 'MyBrand', schema: { type: 'string' } }),
    ApiQuery({ name: 'custom_ref', required: false, description: 'Your reference, at most 255 characters', example: 'order-1001', schema: { type: 'string', maxLength: 255 } }),
  );
