import { ApiProperty } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

export class ListSendDto {
  @Field({ kind: 'integer', required: true, min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('list_id') }, example: 7 })
  list_id: number;

  @Field({
    kind: 'text',
    required: true,
    messages: { invalid: ErrorText.senderNotString },
    description: 'An active sender of the account; numbers in any form',
    example: 'MyBrand',
  })
  sender: string;

  @Field({
    kind: 'text',
    required: true,
    description: 'Placeholders such as {first_name} come from each contact; {optout} adds opt-out text',
    example: 'Hi {first_name}, spring sale today{optout}',
  })
  message: string;

  @Field({ kind: 'text', maxLength: 255, messages: { tooLong: ErrorText.customRefTooLong }, example: 'spring-sale' })
  custom_ref?: string;

  @Field({
    kind: 'text',
    messages: { invalid: ErrorText.invalidScheduledFor },
    description: 'UTC datetime such as 2026-12-01T09:30:00; a time not in the future sends now',
    example: '2026-12-01T09:30:00',
  })
  scheduled_for?: string;

  @Field({ kind: 'integer', min: 1, max: 1440, messages: { invalid: ErrorText.staggerOutOfRange }, description: 'Spread dispatch evenly over this many minutes' })
  stagger_minutes?: number;

  @Field({ kind: 'integer', min: 1, max: 99, messages: { invalid: ErrorText.maxPartsOutOfRange } })
  max_parts?: number;

  @Field({ kind: 'boolean' })
  ignore_unsubscribes?: boolean;

  @Field({ kind: 'boolean', description: 'Extension: shorten links and track clicks per recipient, as in POST /v1/messages (default false)' })
  shorten_urls?: boolean;
}

export class ListSendResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 502 }) send_id: number;
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ description: 'Messages created, after every filter', type: 'integer', example: 120 }) total_recipients: number;
  @ApiProperty({ type: 'integer', example: 3 }) total_blocked_unsubscribed: number;
  @ApiProperty({ type: 'integer', example: 0 }) total_skipped_too_long: number;
  @ApiProperty({ description: 'Credits', example: 120 }) total_cost: number;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null when sent now', example: null }) scheduled_for: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null }) stagger_minutes: number | null;
  @ApiProperty({ enum: ['queued', 'scheduled'] }) send_status: string;
}
