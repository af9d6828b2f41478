import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { Field } from '../../common/validation/field';

export class InboundQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive' })
  from?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive' })
  to?: string;
  @Field({ kind: 'text', source: 'query', description: 'inbound or unsubscribe' })
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
  @ApiProperty({ format: 'uuid' }) message_id: string;
  @ApiProperty({ description: 'The mobile that replied' }) from: string;
  @ApiProperty({ description: "The account's number that received it" }) to: string;
  @ApiProperty() message: string;
  @ApiProperty({ example: '2026-11-21 06:00:00' }) received_at: string;
  @ApiProperty({ enum: ['inbound', 'unsubscribe'] }) type: string;
  @ApiProperty({ description: "The most recent message sent from `to` to `from`; '' when none" }) original_message_id: string;
  @ApiProperty() original_custom_ref: string;
}

export class InboundPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
  @ApiProperty({ type: [InboundMessageDto] }) results: InboundMessageDto[];
}

export class TestInboundResultDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ format: 'uuid' }) message_id: string;
  @ApiProperty({ enum: ['inbound', 'unsubscribe'] }) type: string;
}
