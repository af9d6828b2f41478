import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { Field } from '../../common/validation/field';

export class UpdateWebhooksDto {
  @Field({ kind: 'text', description: "https URL for inbound messages and opt-outs; '' switches them off", example: 'https://example.com/sms/inbound' })
  inbound?: string;
  @Field({ kind: 'text', description: "https URL for delivery receipts (one per message part); '' switches them off" })
  status?: string;
}

export class DeliveriesQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', description: 'status or inbound' })
  event?: string;
}

class WebhookUrlsDto {
  @ApiProperty({ description: "'' when off" }) inbound: string;
  @ApiProperty({ description: "'' when off" }) status: string;
}

export class WebhooksDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: WebhookUrlsDto }) webhooks: WebhookUrlsDto;
  @ApiProperty() has_signing_secret: boolean;
}

export class SigningSecretDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ description: 'Shown once. Webhooks carry X-MM-Timestamp and X-MM-Signature = hex HMAC-SHA256(secret, timestamp + "." + raw body)' })
  signing_secret: string;
}

export class WebhookDeliveryDto {
  @ApiProperty() event_id: number;
  @ApiProperty({ enum: ['status', 'inbound'] }) event: string;
  @ApiProperty() url: string;
  @ApiProperty({ description: '1 for the first attempt' }) attempt: number;
  @ApiProperty({ type: 'integer', nullable: true }) response_status: number | null;
  @ApiProperty({ description: "'' when none" }) error: string;
  @ApiProperty() delivered: boolean;
  @ApiProperty({ example: '2026-11-21 06:00:00' }) created_at: string;
}

export class WebhookDeliveriesDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
  @ApiProperty({ type: [WebhookDeliveryDto] }) results: WebhookDeliveryDto[];
}
