import { ApiProperty } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { Field } from '../../common/validation/field';

export class ListSendDto {
  @Field({ kind: 'integer', required: true, min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('list_id') } })
  list_id: number;

  @Field({ kind: 'text', required: true, messages: { invalid: ErrorText.senderNotString }, description: 'An active sender of the account' })
  sender: string;

  @Field({ kind: 'text', required: true, description: 'Placeholders such as {first_name} come from each contact; {optout} adds opt-out text' })
  message: string;

  @Field({ kind: 'text', maxLength: 255, messages: { tooLong: ErrorText.customRefTooLong } })
  custom_ref?: string;

  @Field({ kind: 'text', messages: { invalid: ErrorText.invalidScheduledFor }, description: 'UTC datetime such as 2026-12-01T09:30:00' })
  scheduled_for?: string;

  @Field({ kind: 'integer', min: 1, max: 1440, messages: { invalid: ErrorText.staggerOutOfRange }, description: 'Spread dispatch evenly over this many minutes' })
  stagger_minutes?: number;

  @Field({ kind: 'integer', min: 1, max: 99, messages: { invalid: ErrorText.maxPartsOutOfRange } })
  max_parts?: number;

  @Field({ kind: 'boolean' })
  ignore_unsubscribes?: boolean;
}

export class ListSendResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() send_id: number;
  @ApiProperty() list_id: number;
  @ApiProperty({ description: 'Messages created, after every filter' }) total_recipients: number;
  @ApiProperty() total_blocked_unsubscribed: number;
  @ApiProperty() total_skipped_too_long: number;
  @ApiProperty() total_cost: number;
  @ApiProperty({ type: 'string', nullable: true }) scheduled_for: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) stagger_minutes: number | null;
  @ApiProperty({ enum: ['queued', 'scheduled'] }) send_status: string;
}
