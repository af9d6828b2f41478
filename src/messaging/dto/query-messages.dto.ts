import { ApiExtraModels, ApiOkResponse, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { CarrierErrorDto } from '../../common/http/carrier-error.dto';
import { LaxPageQuery } from '../../common/http/pagination';
import { CREDITS_TEXT_SCHEMA, DAY_SCHEMA, MOBILE_SCHEMA, TIMESTAMP_SCHEMA, UUID_EXAMPLE } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';
import { MESSAGE_STATUSES } from '../message.entity';

/** limit and offset apply to the history only: a lookup by message_id or custom_ref ignores them. */
export class MessagesQuery extends LaxPageQuery {
  @Field({ kind: 'text', source: 'query', format: 'uuid', description: 'Takes precedence over custom_ref', example: UUID_EXAMPLE })
  message_id?: string;
  @Field({ kind: 'text', source: 'query', description: 'Exact match; the 100 most recent; ignores limit and offset', example: 'order-1001' })
  custom_ref?: string;
  @Field({ kind: 'text', source: 'query', description: 'History only', doc: { enum: [...MESSAGE_STATUSES] } })
  status?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive; on requested_at', doc: DAY_SCHEMA })
  from?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive; on requested_at', doc: DAY_SCHEMA })
  to?: string;
  @Field({
    kind: 'text',
    source: 'query',
    description:
      'History only: continue after the page that answered this `next_cursor` (send the same filters). Costs the same however deep, where a large `offset` grows with it; `offset` still counts from the cursor, `total` is unchanged',
  })
  cursor?: string;
}

export class MessageLookupDto {
  @ApiProperty(MOBILE_SCHEMA) to: string;
  @ApiProperty({ example: 'Your order is ready' }) message: string;
  @ApiProperty({ example: 'MyBrand' }) sender: string;
  @ApiProperty({ description: "'' when none was supplied", example: 'order-1001' }) custom_ref: string;
  @ApiProperty({ enum: MESSAGE_STATUSES, example: 'delivered' }) status: string;
  @ApiProperty({ ...CREDITS_TEXT_SCHEMA, description: 'Credits, two decimals' }) cost: string;
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) message_id: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) requested_at: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null when not scheduled', example: null }) scheduled_for: string | null;
  @ApiProperty({ type: 'integer', example: 501 }) send_id: number;
  @ApiPropertyOptional({
    type: CarrierErrorDto,
    description: 'An extension: present only on a failed message that a carrier refused at submission (its first refused part)',
  })
  carrier_error?: CarrierErrorDto;
}

export class MessageHistoryDto {
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) message_id: string;
  @ApiProperty(MOBILE_SCHEMA) recipient_number: string;
  @ApiProperty({ example: 'MyBrand' }) sender_id: string;
  @ApiProperty({ example: 'Your order is ready' }) message_content: string;
  @ApiProperty({ enum: MESSAGE_STATUSES, example: 'delivered' }) status: string;
  @ApiProperty({ ...CREDITS_TEXT_SCHEMA, description: 'Credits, two decimals' }) cost: string;
  @ApiProperty({ description: "'' when none was supplied", example: 'order-1001' }) custom_ref: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) requested_at: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null when not scheduled', example: null }) scheduled_for: string | null;
  @ApiProperty({ type: 'integer', example: 501 }) send_id: number;
}

export class MessageLookupResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: [MessageLookupDto] }) results: MessageLookupDto[];
}

export class MessageHistoryPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [MessageHistoryDto] }) results: MessageHistoryDto[];
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` (with the same filters) for the next page; null when this page is not full (the history ends here)',
    example: 'MTc2MzcwMDAwMDAwMDAwMC40Mg',
  })
  next_cursor: string | null;
}

/** Two shapes: lookup (message_id or custom_ref) or history. anyOf: a history page also has every field a lookup has. */
export const ApiMessagesQueryOk = () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
  ApiExtraModels(MessageLookupResultDto, MessageHistoryPageDto)(target, key, descriptor);
  ApiOkResponse({ schema: { anyOf: [{ $ref: getSchemaPath(MessageLookupResultDto) }, { $ref: getSchemaPath(MessageHistoryPageDto) }] } })(target, key, descriptor);
};
