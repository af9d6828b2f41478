import { OpenApiValidator } from '../support/openapi-validator';
import { startTestApp, TestApp } from '../support/test-app';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
/** Credits and dollar amounts are the only non-integer numbers (two decimals at most). */
const MONEY = new Set(['credit_balance', 'cost', 'total_cost', 'credits_refunded', 'amount_ex_gst', 'gst', 'amount_inc_gst', 'annual_price_ex_gst']);
/** Measurements that are not counts: /health's backlog age has a decimal. */
const MEASURES = new Set(['oldest_due_seconds']);

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  let operations: Array<{ where: string; path: string; method: string; op: Json }>;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ where: `${method.toUpperCase()} ${path}`, path, method, op: item[method] as Json })),
    );
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 served without authentication at /openapi.json, with browsable docs at /docs and a relative server', async () => {
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { version: '2.0.0' }, servers: [{ url: '/' }], security: [{ basic: [] }] });
    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });

  it('names every operation for what it does: an explicit, unique lowerCamelCase operationId, a summary, a description and one described tag', () => {
    const tags = new Map((doc.tags as Array<{ name: string; description: string }>).map((tag) => [tag.name, tag.description]));
    for (const { where, op } of operations) {
      expect([where, op.operationId]).toEqual([where, expect.stringMatching(/^[a-z][a-zA-Z]+$/)]);
      expect([where, op.summary, op.description]).toEqual([where, expect.any(String), expect.any(String)]);
      expect([where, op.tags.length, tags.get(op.tags[0])]).toEqual([where, 1, expect.any(String)]);
    }
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.fromEntries(operations.map((o) => [o.where, o.op.operationId]))).toMatchObject({
      'POST /v1/messages': 'sendMessages',
      'GET /v1/messages': 'queryMessages',
      'DELETE /v1/messages': 'cancelMessages',
      'POST /v1/list-send': 'sendToList',
      'GET /v1/contacts': 'listContacts',
      'POST /v1/contacts': 'createContact',
      'GET /v1/account': 'getAccount',
      'GET /simple/send-sms': 'sendSimpleMessage',
      'GET /health': 'getHealth',
      'GET /health/live': 'getLiveness',
    });
  });

  it('types every id and count as an integer: the only non-integer numbers are credits, dollar amounts and the backlog age', () => {
    const numbers: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Json;
      const types = [schema.type].flat();
      if (types.includes('number')) numbers.push(path);
      for (const [key, value] of Object.entries(schema)) walk(value, `${path}.${key}`);
    };
    walk(doc.components.schemas, 'schemas');
    for (const { where, op } of operations) walk(op.parameters, where);
    expect(numbers.filter((path) => !MONEY.has(path.split('.').pop()!) && !MEASURES.has(path.split('.').pop()!))).toEqual([]);
    expect(doc.components.schemas.SendResultDto.properties.send_id.type).toBe('integer');
    expect(doc.components.schemas.ContactDto.properties.contact_id.type).toBe('integer');
  });

  it('puts enums on closed sets, patterns on dates and a length limit on Idempotency-Key', () => {
    const param = (where: string, name: string) => operations.find((o) => o.where === where)!.op.parameters.find((p: Json) => p.name === name).schema;
    expect(param('GET /v1/messages', 'status').enum).toEqual(['pending', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled']);
    expect(param('GET /v1/inbound', 'type').enum).toEqual(['inbound', 'unsubscribe']);
    expect(param('GET /v1/webhook-deliveries', 'event').enum).toEqual(['status', 'inbound']);
    expect(param('GET /v1/messages', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
    for (const [where, name] of [
      ['GET /v1/messages', 'from'],
      ['GET /v1/messages', 'to'],
      ['GET /v1/inbound', 'from'],
    ]) {
      expect(new RegExp(param(where, name).pattern).test('2026-11-21')).toBe(true);
    }
    expect(param('POST /v1/messages', 'Idempotency-Key')).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
    expect(doc.components.schemas.MessageLookupDto.properties.requested_at.pattern).toBe('^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$');
    expect(doc.components.schemas.MessageLookupDto.properties.scheduled_for.type).toEqual(['string', 'null']);
    expect(doc.components.schemas.SenderDto.properties.type.enum).toEqual(['alpha', 'own', 'dedicated', 'shared']);
  });

  it('declares the response headers clients read, on the statuses that carry them', () => {
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const { where, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        expect([where, status, response.headers?.['X-Request-Id']]).toEqual([where, status, header('X-Request-Id')]);
        if (status === '401') expect([where, response.headers['WWW-Authenticate']]).toEqual([where, header('WWW-Authenticate')]);
        if (status === '405') expect([where, response.headers.Allow]).toEqual([where, header('Allow')]);
        if (status === '429' || status === '503') expect([where, response.headers['Retry-After']]).toEqual([where, header('Retry-After')]);
      }
    }
    expect(operations.find((o) => o.where === 'POST /v1/messages')!.op.responses['200'].headers['Idempotency-Replay']).toEqual(header('Idempotency-Replay'));
    expect(Object.keys(doc.components.headers).sort()).toEqual(['Allow', 'Idempotency-Replay', 'Retry-After', 'WWW-Authenticate', 'X-Request-Id']);
  });

  it('marks health public and everything else Basic-authenticated; the simple interface also takes query credentials', () => {
    for (const { where, path, op } of operations) {
      // Health and the public pages recipients open from a text (x-public-page) need no credentials.
      if (path.startsWith('/health') || op['x-public-page']) expect([where, op.security]).toEqual([where, []]);
      else if (path === '/simple/send-sms') expect(op.security).toEqual([{ basic: [] }, { apiUsername: [], apiPassword: [] }]);
      else expect([where, op.security]).toEqual([where, [{ basic: [] }]]);
      if (!path.startsWith('/health') && !op['x-public-page']) {
        for (const status of ['401', '429', '503']) {
          expect([where, status, op.responses[status]?.content?.['application/json']?.schema]).toEqual([where, status, { $ref: '#/components/schemas/ErrorEnvelopeDto' }]);
        }
      }
    }
    expect(doc.components.securitySchemes).toMatchObject({
      basic: { type: 'http', scheme: 'basic' },
      apiUsername: { type: 'apiKey', in: 'query', name: 'api_username' },
      apiPassword: { type: 'apiKey', in: 'query', name: 'api_password' },
    });
  });

  it('gives every operation an example of its answer and of its request body, each valid against its schema', () => {
    const validator = new OpenApiValidator(doc);
    for (const { where, op } of operations) {
      if (op['x-public-page']) {
        // A public page answers HTML (or a redirect) to browsers; its errors are the envelope for API clients.
        expect([where, op.responses['200']?.content?.['text/html'] ?? op.responses['302']?.headers?.Location]).toEqual([where, expect.anything()]);
        expect([where, op.responses['404'].content['application/json'].schema]).toEqual([where, { $ref: '#/components/schemas/ErrorEnvelopeDto' }]);
        continue;
      }
      const ok = op.responses['200'].content['application/json'];
      expect([where, ok.example]).toEqual([where, expect.anything()]);
      expect(validator.checkSchema(`${where} 200 example`, ok.schema, ok.example)).toBeNull();
      const body = op.requestBody?.content?.['application/json'];
      if (body) {
        expect([where, body.example]).toEqual([where, expect.anything()]);
        expect(validator.checkSchema(`${where} request example`, body.schema, body.example)).toBeNull();
      }
    }
  });

  it('describes the two webhooks, their payloads and their event id and signature headers', () => {
    const validator = new OpenApiValidator(doc);
    for (const [name, operationId] of [
      ['messageStatus', 'messageStatusWebhook'],
      ['inboundMessage', 'inboundMessageWebhook'],
    ]) {
      const op = doc.webhooks[name].post;
      expect(op.operationId).toBe(operationId);
      expect(op.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
        ['X-MM-Event-Id', 'header', true],
        ['X-MM-Timestamp', 'header', true],
        ['X-MM-Signature', 'header', false],
      ]);
      const media = op.requestBody.content['application/json'];
      expect(validator.checkWebhook(name, media.example)).toBeNull();
    }
    expect(doc.components.schemas.MessageStatusWebhookDto.properties.status.enum).toEqual(['delivered', 'failed', 'cancelled']);
    expect(doc.components.schemas.InboundMessageWebhookDto.properties.type.enum).toEqual(['inbound', 'unsubscribe']);
  });
});
