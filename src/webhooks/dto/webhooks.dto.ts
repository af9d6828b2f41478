import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

export class UpdateWebhooksDto {
  @Field({ kind: 'text', description: "https URL for inbound messages and opt-outs; '' switches them off", example: 'https://example.com/sms/inbound' })
  inbound?: string;
  @Field({ kind: 'text', description: "https URL for delivery receipts (one per message part); '' switches them off", example: 'https://example.com/sms/status' })
  status?: string;
}

export class DeliveriesQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', description: 'Only status or only inbound webhooks', doc: { enum: ['status', 'inbound'] } })
  event?: string;
}

class WebhookUrlsDto {
  @ApiProperty({ description: "'' when off", example: 'https://example.com/sms/inbound' }) inbound: string;
  @ApiProperty({ description: "'' when off", example: 'https://example.com/sms/status' }) status: string;
}

export class WebhooksDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: WebhookUrlsDto }) webhooks: WebhookUrlsDto;
  @ApiProperty({ example: true }) has_signing_secret: boolean;
}

export class SigningSecretDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({
    description: 'Shown once. Webhooks carry X-MM-Timestamp and X-MM-Signature = hex HMAC-SHA256(secret, timestamp + "." + raw body)',
    example: 'whsec_4f9d2c7a1b8e6f3a0d5c9b2e7f1a4d8c',
  })
  signing_secret: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'The X-MM-Event-Id the webhook carried', example: 89266600292409 }) event_id: number;
  @ApiProperty({ enum: ['status', 'inbound'] }) event: string;
  @ApiProperty({ example: 'https://example.com/sms/status' }) url: string;
  @ApiProperty({ description: '1 for the first attempt', type: 'integer', example: 1 }) attempt: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null when no answer came', example: 200 }) response_status: number | null;
  @ApiProperty({ description: "Why the attempt failed; '' when it did not", example: '' }) error: string;
  @ApiProperty({ example: true }) delivered: boolean;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) created_at: string;
}

export class WebhookDeliveriesDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [WebhookDeliveryDto] }) results: WebhookDeliveryDto[];
}

export class TestEventDto {
  @Field({ kind: 'text', description: 'Which URL to try: status (the default) or inbound', doc: { enum: ['status', 'inbound'] }, example: 'status' })
  event?: string;
}

export class TestEventSentDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'The X-MM-Event-Id it is sent with; its attempts appear in GET /v1/webhook-deliveries', example: 89266600292410 })
  event_id: number;
}

export class RedeliverDto {
  @Field({
    kind: 'integer',
    min: 1,
    format: 'int64',
    description: 'One failed or discarded event (its X-MM-Event-Id); leave out to give a period instead',
    example: 89266600292409,
  })
  event_id?: number;
  @Field({ kind: 'text', description: 'With to: every failed event created at or after this UTC time', doc: TIMESTAMP_SCHEMA })
  from?: string;
  @Field({ kind: 'text', description: 'With from: ... and before this UTC time', doc: TIMESTAMP_SCHEMA })
  to?: string;
}

export class RedeliveredDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', description: 'Events made due again now', example: 3 }) redelivered: number;
}
