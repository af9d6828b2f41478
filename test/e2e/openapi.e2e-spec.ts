import { startTestApp, TestApp } from '../support/test-app';

describe('OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is served without authentication at /openapi.json, with browsable docs at /docs', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json()).toMatchObject({ openapi: expect.stringMatching(/^3\./), info: { version: '2.0.0' } });
    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });

  it('documents every /v1 route with a 200 schema, Basic auth and the error statuses every endpoint shares', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const v1 = Object.entries(doc.paths as Record<string, Record<string, any>>).filter(([path]) => path.startsWith('/v1/'));
    expect(v1.map(([path]) => path)).toEqual(expect.arrayContaining(['/v1/account', '/v1/senders']));
    for (const [path, operations] of v1) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect([where, operation.security]).toEqual([where, [{ basic: [] }]]);
        expect([where, operation.responses['200']?.content?.['application/json']?.schema]).toEqual([where, expect.anything()]);
        for (const status of ['401', '429', '503']) {
          expect([where, status, operation.responses[status]?.content?.['application/json']?.schema]).toEqual([where, status, { $ref: '#/components/schemas/ErrorEnvelopeDto' }]);
        }
      }
    }
    expect(doc.components.schemas.ErrorEnvelopeDto).toEqual({ type: 'object', properties: { error: { type: 'string', example: expect.any(String) } }, required: ['error'] });
  });
});
