import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { DAY_SCHEMA, TIMESTAMP_SCHEMA, UUID_EXAMPLE } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

/** The kinds of inbound message (supplement: Inbound messages). */
export const INBOUND_TYPES = ['inbound', 'unsubscribe'] as const;

export class InboundQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive', doc: DAY_SCHEMA })
  from?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive', doc: DAY_SCHEMA })
  to?: string;
  @Field({ kind: 'text', source: 'query', description: 'Only replies (inbound) or only opt-outs (unsubscribe)', doc: { enum: [...INBOUND_TYPES] } })
  type?: string;
}

export class TestInboundDto {
  @Field({ kind: 'text', required: true, description: 'The mobile that replies', example: '0412345678' })
  from: string;
  @Field({ kind: 'text', required: true, example: 'STOP' })
  message: string;
  @Field({ kind: 'text', description: "The account's receiving number; default its first dedicated or shared number" })
  to?: string;
}

export class InboundMessageDto {
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) message_id: string;
  @ApiProperty({ description: 'The mobile that replied: international digits, normalised when Australian', example: '61412345678' }) from: string;
  @ApiProperty({ description: "The account's number that received it", example: '61400000001' }) to: string;
  @ApiProperty({ example: 'Yes please' }) message: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) received_at: string;
  @ApiProperty({ enum: INBOUND_TYPES }) type: string;
  @ApiProperty({ description: "The most recent message sent from `to` to `from`; '' when none", example: UUID_EXAMPLE }) original_message_id: string;
  @ApiProperty({ description: "That message's custom_ref; '' when none", example: 'order-1001' }) original_custom_ref: string;
}

export class InboundPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [InboundMessageDto] }) results: InboundMessageDto[];
}

export class TestInboundResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) message_id: string;
  @ApiProperty({ enum: INBOUND_TYPES }) type: string;
}
