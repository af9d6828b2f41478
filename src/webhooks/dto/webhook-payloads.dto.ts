import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CarrierErrorDto } from '../../common/http/carrier-error.dto';
import { MOBILE_SCHEMA, TIMESTAMP_SCHEMA, UUID_EXAMPLE } from '../../common/http/openapi-schemas';

/** Body of a delivery receipt webhook (one per message part), as webhook-events.service.ts writes it. */
export class MessageStatusWebhookDto {
  @ApiProperty({ ...MOBILE_SCHEMA, description: 'The recipient' }) to: string;
  @ApiProperty({ description: 'The sender the message went from', example: 'MyBrand' }) sender: string;
  @ApiProperty({ description: 'The text as sent', example: 'Your order is ready' }) message: string;
  @ApiProperty({ description: "Your custom_ref; '' when none", example: 'order-1001' }) custom_ref: string;
  @ApiProperty({ enum: ['delivered', 'failed', 'cancelled'], example: 'delivered' }) status: string;
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) message_id: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'When the status changed (UTC)' }) received_at: string;
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 }) part_number: number;
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 }) total_parts: number;
  @ApiPropertyOptional({ type: CarrierErrorDto, description: 'An extension: present only when status is failed because the carrier refused this part at submission' })
  carrier_error?: CarrierErrorDto;
  @ApiProperty({ required: false, description: 'Present (true) only on a test event (POST /v1/webhooks/test-event)', example: true }) test?: boolean;
}

/** The keyword an inbound message matched (src/keywords). */
export class KeywordRuleMatchDto {
  @ApiProperty({ type: 'integer', nullable: true, description: 'The account’s rule (GET /v1/keyword-rules); null for a built-in keyword', example: 3 }) rule_id: number | null;
  @ApiProperty({ description: 'The keyword that matched', example: 'JOIN' }) keyword: string;
}

/** Body of an inbound webhook: a reply or an opt-out received on one of the account's numbers. */
export class InboundMessageWebhookDto {
  @ApiProperty({ description: "The account's number that received it", example: '61400000001' }) to: string;
  @ApiProperty({ description: 'The mobile that replied: international digits, normalised when Australian', example: '61412345678' }) sender: string;
  @ApiProperty({ description: "The reply's text ('' for an opt-out made through the opt-out link)", example: 'Yes please' }) message: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'When it was received (UTC)' }) received_at: string;
  @ApiProperty({ enum: ['inbound', 'unsubscribe'], example: 'inbound' }) type: string;
  @ApiProperty({ description: "The most recent message sent from `to` to `sender`; '' when none", example: UUID_EXAMPLE }) original_message_id: string;
  @ApiProperty({ description: "That message's custom_ref; '' when none", example: 'order-1001' }) original_custom_ref: string;
  @ApiPropertyOptional({
    type: KeywordRuleMatchDto,
    description: 'An extension: present only when the reply matched a keyword (an account’s rule or a built-in START or HELP)',
  })
  keyword_rule?: KeywordRuleMatchDto;
  @ApiProperty({ required: false, description: 'Present (true) only on a test event (POST /v1/webhooks/test-event)', example: true }) test?: boolean;
}
