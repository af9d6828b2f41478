import { getSchemaPath } from '@nestjs/swagger';
import { SIGNATURE_TOLERANCE_SECONDS } from './signature';
import { InboundMessageWebhookDto, MessageStatusWebhookDto } from './dto/webhook-payloads.dto';

/** The payload classes, registered as extra models so the document holds their schemas. */
export const WEBHOOK_PAYLOAD_MODELS = [MessageStatusWebhookDto, InboundMessageWebhookDto];

const HEADERS = [
  {
    name: 'X-MM-Event-Id',
    in: 'header',
    required: true,
    description:
      'Identifies the event: the same on every retry of it (and the event_id of GET /v1/webhook-deliveries). Deliveries are at least once: skip an id you have processed.',
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    example: '1024',
  },
  {
    name: 'X-MM-Timestamp',
    in: 'header',
    required: true,
    description: `Unix seconds when this attempt was sent. Reject a signed request more than ${SIGNATURE_TOLERANCE_SECONDS} s from your clock.`,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1795500000',
  },
  {
    name: 'X-MM-Signature',
    in: 'header',
    required: false,
    description:
      'Present once the account has a signing secret: lowercase hex HMAC-SHA256, keyed with the secret, of the X-MM-Timestamp value, a ".", and the raw body bytes. Verify it on the raw body before parsing it.',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    example: '5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592',
  },
];

const RESPONSES = {
  '200': { description: 'Any 2xx answered within 5 seconds acknowledges the webhook.' },
  '4XX': {
    description:
      'Anything but a 2xx within 5 seconds is a failure: the webhook is retried with the same body and event id (up to 10 retries, backing off from 1 minute to 1 hour).',
  },
};

function webhook(operationId: string, summary: string, description: string, model: new () => object, example: object) {
  return {
    post: {
      operationId,
      tags: ['webhooks'],
      summary,
      description,
      security: [],
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: getSchemaPath(model) }, example } } },
      responses: RESPONSES,
    },
  };
}

/** The `webhooks` section of the OpenAPI document: what the service POSTs to the account's URLs. */
export function webhooksOpenApi(): Record<string, unknown> {
  return {
    messageStatus: webhook(
      'messageStatusWebhook',
      'A message part was delivered, failed or was cancelled',
      'Sent to the status URL (PATCH /v1/webhooks), one per message part, when the part reaches delivered, failed or cancelled. A part its carrier never reports (some carriers report only the first part of a long message, some nothing) gets none: its wait for a receipt closes after the operator’s receipt wait (48 hours by default) and the message lookup reads its final status.',
      MessageStatusWebhookDto,
      {
        to: '61412345678',
        sender: 'MyBrand',
        message: 'Your order is ready',
        custom_ref: 'order-1001',
        status: 'delivered',
        message_id: '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
        received_at: '2026-11-21 06:00:05',
        part_number: 1,
        total_parts: 1,
      },
    ),
    inboundMessage: webhook(
      'inboundMessageWebhook',
      'A reply or an opt-out was received',
      'Sent to the inbound URL for every reply to one of the account’s numbers, and for every opt-out (type unsubscribe: a STOP reply or the opt-out link).',
      InboundMessageWebhookDto,
      {
        to: '61400000001',
        sender: '61412345678',
        message: 'STOP',
        received_at: '2026-11-21 06:10:00',
        type: 'unsubscribe',
        original_message_id: '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
        original_custom_ref: 'order-1001',
      },
    ),
  };
}
