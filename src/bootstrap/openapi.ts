import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_SCOPES } from '../common/auth/api-scopes';
import { WEBHOOK_PAYLOAD_MODELS, webhooksOpenApi } from '../webhooks/webhooks.openapi';
import { addCodeSamples } from './openapi-code-samples';
import { finishOpenApiDocument } from './openapi-finish';

/**
 * The OpenAPI document clients are generated from. Conventions every endpoint follows (the e2e suite
 * and the linters check them):
 * - an explicit `operationId` in @ApiOperation, lowerCamelCase verb + noun naming the operation, not the
 *   handler: `sendMessages`, `queryMessages`, `cancelMessages`, `listContacts`, `createContact`,
 *   `updateContact`, `deleteContact`, `getAccount` (get = one resource, list = a collection);
 * - a `summary` (a line) and a `description` (the rules a caller needs);
 * - one tag from TAGS below;
 * - `type: 'integer'` for every id and count (money stays a number), `enum` on every closed set, the
 *   fixed text forms from common/http/openapi-schemas.ts, and an `example` on each response property.
 */
export const TAGS: Array<{ name: string; description: string }> = [
  { name: 'messages', description: 'Send batches of up to 10000 messages or to a whole list, look them up, browse the history and cancel scheduled ones.' },
  { name: 'simple', description: 'One message with every parameter in the query string, for client libraries of the simple interface. Outside v1.' },
  { name: 'contacts', description: 'The address book: contacts and their placeholder fields.' },
  { name: 'lists', description: 'Named contact lists and their members, for list sends.' },
  { name: 'unsubscribes', description: 'Numbers that opted out; sends skip them unless told to ignore unsubscribes.' },
  { name: 'consent', description: 'The evidence of every opt-in and opt-out: when, how, and what proves it.' },
  { name: 'quiet-hours', description: 'The allowed sending window in each recipient’s local time, for list sends and sends that ask for it.' },
  { name: 'keyword-rules', description: 'What replies make happen: auto-replies, list joins, opt-outs and opt-ins by keyword, after STOP and before START and HELP.' },
  { name: 'inbound', description: 'Replies and opt-outs received on the account’s numbers.' },
  { name: 'webhooks', description: 'Where delivery receipts and inbound messages are POSTed, the signing secret, and the delivery log.' },
  { name: 'account', description: 'The account’s credit balance.' },
  {
    name: 'senders',
    description:
      'Sender identities: the active senders, your own mobile as a sender (confirmed by a texted link), ACMA registration of alphanumeric Sender IDs, and the free dedicated number.',
  },
  {
    name: 'purchases',
    description:
      'Buying SMS credits and dedicated numbers with a saved card, when purchases are enabled for the API key: prices inc. GST, a daily limit per key, an Idempotency-Key on every purchase, a tax invoice by email.',
  },
  {
    name: 'link tracking',
    description:
      'Shortened links (`shorten_urls`) and their clicks, and the public pages recipients open from a text: the short link redirect and the `{optout}` page (outside /v1, no authentication; HTML for browsers, the `{"error": "..."}` envelope with `Accept: application/json`; marked `x-public-page`).',
  },
  { name: 'operations', description: 'Health and liveness checks for operators and load balancers (no authentication).' },
];

const DESCRIPTION = [
  'Send and receive SMS to Australian mobiles: batches of up to 10000 messages, list sends, scheduling with refundable cancellation, contacts and opt-outs, delivery receipts and replies by webhook.',
  '',
  'Every request authenticates with HTTP Basic (an API username and password). Bodies are JSON; every 4xx/5xx body is `{"error": "..."}`. Numbers are accepted in any Australian mobile form and answered normalised (`61412345678`); times are UTC.',
  '',
  'The guides (concepts, authentication, errors, idempotency, webhooks and their signature recipes, limits) are served by this service at [/guides](/guides).',
].join('\n');

const BASIC_AUTH_DESCRIPTION = [
  'API username and password (created by the operator CLI or the dashboard).',
  '',
  'Each key carries scopes; every operation names the one it needs in `x-required-scope`, and a key without it answers 403 `This API key does not have the <scope> scope`:',
  ...API_SCOPES.map((s) => `- \`${s.scope}\`: ${s.covers}`),
  '',
  "New keys get every scope except `purchases` (the purchases switch, answered `Purchases are not enabled for this API key`). A key may also be limited to client addresses (CIDR blocks; elsewhere 403 `This API key cannot be used from this address`) and capped in messages per day in the account's time zone (a send that would go over is refused whole: 403 `Daily message limit of N reached for this API key`).",
].join('\n');

/** Who answers for the API and on what terms: proprietary, no public licence (SPDX custom licence reference). */
const INFO = { contact: { name: 'API support' }, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } };
import { addTransportResponses } from './transport-responses';
import { shortLinkOpenApi } from '../links/short-link.openapi';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('SMS Messaging Service for Australia')
    .setDescription(DESCRIPTION)
    .setVersion('2.0.0')
    .addServer('/', 'The service serving this document')
    .addBasicAuth({ type: 'http', scheme: 'basic', description: BASIC_AUTH_DESCRIPTION }, 'basic')
    .addApiKey({ type: 'apiKey', in: 'query', name: 'api_username', description: 'Simple send interface only; prefer Basic auth' }, 'apiUsername')
    .addApiKey({ type: 'apiKey', in: 'query', name: 'api_password', description: 'Simple send interface only; prefer Basic auth' }, 'apiPassword')
    .addSecurityRequirements('basic');
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  const generated = SwaggerModule.createDocument(app, builder.build(), { extraModels: WEBHOOK_PAYLOAD_MODELS });
  generated.paths['/{code}'] = shortLinkOpenApi();
  addCodeSamples(generated.paths as Parameters<typeof addCodeSamples>[0]);
  return finishOpenApiDocument(addTransportResponses(generated), { webhooks: webhooksOpenApi(), info: INFO }) as OpenAPIObject;
}

/** Serves the document at /openapi.json and the browsable docs at /docs, both without authentication. */
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    // The product's own reference page: its title, no vendor bar.
    customSiteTitle: 'SMS Platform API reference',
    customCss: '.swagger-ui .topbar { display: none }',
    customfavIcon: 'data:,',
  });
  return document;
}
