import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { TIMESTAMP_SCHEMA, UUID_EXAMPLE } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

export const MAX_MESSAGES_PER_REQUEST = 10000;

/** One message of a batch; checked entry by entry by the service, so each can fail on its own. */
export class MessageInputDto {
  @ApiProperty({ description: 'Australian mobile, local or international form', example: '0412345678' })
  to: string;
  @ApiProperty({ description: 'Text; {first_name} etc. take the matching contact’s fields, {optout} adds opt-out text', example: 'Hi {first_name}{optout}' })
  message: string;
  @ApiProperty({ description: 'An active sender of the account; a number in any form a recipient may take', example: 'MyBrand' })
  sender: string;
  @ApiPropertyOptional({ maxLength: 255, description: 'Your reference, matched exactly by lookups and cancellation', example: 'order-1001' })
  custom_ref?: string;
  @ApiPropertyOptional({ description: 'UTC datetime such as 2026-12-01T09:30:00; a time not in the future sends now', example: '2026-12-01T09:30:00' })
  scheduled_for?: string;
}

export class SendMessagesDto {
  @Field({
    kind: 'array',
    required: true,
    minItems: 1,
    maxItems: MAX_MESSAGES_PER_REQUEST,
    items: MessageInputDto,
    messages: { required: ErrorText.invalidMessages, invalid: ErrorText.invalidMessages, tooMany: ErrorText.tooManyMessages },
  })
  messages: unknown[];

  @Field({ kind: 'boolean', description: 'Allow non-GSM characters (UCS-2, 70/67 characters per part)' })
  enable_unicode?: boolean;

  @Field({ kind: 'integer', min: 1, max: 99, messages: { invalid: ErrorText.maxPartsOutOfRange }, description: 'Cap on parts per message (default 5)' })
  max_parts?: number;

  @Field({ kind: 'boolean', description: 'When true, links in messages are shortened and clicks tracked per recipient (GET /v1/link-clicks)' })
  shorten_urls?: boolean;

  @Field({ kind: 'boolean', description: 'Send to unsubscribed numbers too (default false)' })
  ignore_unsubscribes?: boolean;

  @Field({
    kind: 'boolean',
    description:
      'An extension: when the account has quiet hours on (GET /v1/quiet-hours), a message that would go outside them in its recipient’s time zone is scheduled for the next allowed minute (default false: transactional sends are unaffected)',
  })
  respect_quiet_hours?: boolean;
}

export class SendResultEntryDto {
  @ApiProperty({ description: 'Normalised recipient (as given when it could not be parsed)', example: '61412345678' }) to: string;
  @ApiProperty({ description: 'Text as rendered', example: 'Your order is ready' }) message: string;
  @ApiProperty({ description: 'The sender as stored (a number normalised)', example: 'MyBrand' }) sender: string;
  @ApiPropertyOptional({ description: 'Present only when supplied', example: 'order-1001' }) custom_ref?: string;
  @ApiProperty({ enum: ['success', 'blocked', 'error'], example: 'success' }) status: string;
  @ApiPropertyOptional({ description: 'Credits; present on success', example: 1 }) cost?: number;
  @ApiPropertyOptional({ format: 'uuid', description: 'Present on success', example: UUID_EXAMPLE }) message_id?: string;
  @ApiProperty({ type: 'integer', enum: [0], example: 0 }) conversation: number;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null when not scheduled', example: null }) scheduled_for: string | null;
  @ApiPropertyOptional({ description: 'Present on blocked and error entries, e.g. Invalid phone number format' }) error?: string;
}

export class SendResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 501 }) send_id: number;
  @ApiProperty({ example: false }) ignore_unsubscribes: boolean;
  @ApiProperty({ description: 'Credits for the whole batch', example: 1 }) total_cost: number;
  @ApiProperty({ type: [SendResultEntryDto] }) results: SendResultEntryDto[];
}
