import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { Field } from '../../common/validation/field';

export const MAX_MESSAGES_PER_REQUEST = 10000;

/** One message of a batch; checked entry by entry by the service, so each can fail on its own. */
export class MessageInputDto {
  @ApiProperty({ description: 'Australian mobile, local or international form', example: '0412345678' })
  to: string;
  @ApiProperty({ description: 'Text; {first_name} etc. take the matching contact’s fields, {optout} adds opt-out text', example: 'Hi {first_name}{optout}' })
  message: string;
  @ApiProperty({ description: 'An active sender of the account', example: 'MyBrand' })
  sender: string;
  @ApiPropertyOptional({ maxLength: 255 })
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

  @Field({ kind: 'boolean', description: 'Shorten links and track clicks per recipient' })
  shorten_urls?: boolean;

  @Field({ kind: 'boolean', description: 'Send to unsubscribed numbers too (default false)' })
  ignore_unsubscribes?: boolean;
}

export class SendResultEntryDto {
  @ApiProperty({ description: 'Normalised recipient (as given when it could not be parsed)' }) to: string;
  @ApiProperty({ description: 'Text as rendered' }) message: string;
  @ApiProperty() sender: string;
  @ApiPropertyOptional({ description: 'Present only when supplied' }) custom_ref?: string;
  @ApiProperty({ enum: ['success', 'blocked', 'error'] }) status: string;
  @ApiPropertyOptional({ description: 'Credits; present on success' }) cost?: number;
  @ApiPropertyOptional({ format: 'uuid', description: 'Present on success' }) message_id?: string;
  @ApiProperty({ enum: [0] }) conversation: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'UTC YYYY-MM-DD HH:MM:SS, null when not scheduled' }) scheduled_for: string | null;
  @ApiPropertyOptional({ description: 'Present on blocked and error entries' }) error?: string;
}

export class SendResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() send_id: number;
  @ApiProperty() ignore_unsubscribes: boolean;
  @ApiProperty({ description: 'Credits for the whole batch' }) total_cost: number;
  @ApiProperty({ type: [SendResultEntryDto] }) results: SendResultEntryDto[];
}
