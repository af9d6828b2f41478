import { ApiExtraModels, ApiOkResponse, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { LaxPageQuery } from '../../common/http/pagination';
import { Field } from '../../common/validation/field';
import { MESSAGE_STATUSES } from '../message.entity';

/** limit and offset apply to the history only: a lookup by message_id or custom_ref ignores them. */
export class MessagesQuery extends LaxPageQuery {
  @Field({ kind: 'text', source: 'query', format: 'uuid', description: 'Takes precedence over custom_ref' })
  message_id?: string;
  @Field({ kind: 'text', source: 'query', description: 'Exact match; the 100 most recent; ignores limit and offset' })
  custom_ref?: string;
  @Field({ kind: 'text', source: 'query', description: `History only: ${MESSAGE_STATUSES.join(', ')}` })
  status?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive' })
  from?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive' })
  to?: string;
}

export class MessageLookupDto {
  @ApiProperty() to: string;
  @ApiProperty() message: string;
  @ApiProperty() sender: string;
  @ApiProperty({ description: "'' when none was supplied" }) custom_ref: string;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status: string;
  @ApiProperty({ example: '2.00' }) cost: string;
  @ApiProperty({ format: 'uuid' }) message_id: string;
  @ApiProperty({ example: '2026-11-21 06:00:00' }) requested_at: string;
  @ApiProperty({ type: 'string', nullable: true }) scheduled_for: string | null;
  @ApiProperty() send_id: number;
}

export class MessageHistoryDto {
  @ApiProperty({ format: 'uuid' }) message_id: string;
  @ApiProperty() recipient_number: string;
  @ApiProperty() sender_id: string;
  @ApiProperty() message_content: string;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status: string;
  @ApiProperty({ example: '2.00' }) cost: string;
  @ApiProperty() custom_ref: string;
  @ApiProperty({ example: '2026-11-21 06:00:00' }) requested_at: string;
  @ApiProperty({ type: 'string', nullable: true }) scheduled_for: string | null;
  @ApiProperty() send_id: number;
}

export class MessageLookupResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: [MessageLookupDto] }) results: MessageLookupDto[];
}

export class MessageHistoryPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
  @ApiProperty({ type: [MessageHistoryDto] }) results: MessageHistoryDto[];
}

/** Two shapes: lookup (message_id or custom_ref) or history. */
export const ApiMessagesQueryOk = () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
  ApiExtraModels(MessageLookupResultDto, MessageHistoryPageDto)(target, key, descriptor);
  ApiOkResponse({ schema: { oneOf: [{ $ref: getSchemaPath(MessageLookupResultDto) }, { $ref: getSchemaPath(MessageHistoryPageDto) }] } })(target, key, descriptor);
};
