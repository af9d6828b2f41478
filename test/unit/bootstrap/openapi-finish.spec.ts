import { exampleOf, finishOpenApiDocument, toSchema31 } from '../../../src/bootstrap/openapi-finish';

describe(toSchema31.name, () => {
  it('turns nullable into a null type (and a null enum member), and a schema example into examples', () => {
    expect(toSchema31({ type: 'string', nullable: true, example: 'x' })).toEqual({ type: ['string', 'null'], examples: ['x'] });
    expect(toSchema31({ type: 'string', enum: ['a'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['a', null] });
  });

  it('wraps a nullable reference in anyOf with null', () => {
    expect(toSchema31({ allOf: [{ $ref: '#/components/schemas/A' }], nullable: true, description: 'maybe' })).toEqual({
      description: 'maybe',
      anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }],
    });
  });

  it('treats property names as names, and leaves example values alone', () => {
    const schema = { type: 'object', properties: { example: { type: 'string' }, nullable: { type: 'boolean', example: { nullable: true } } } };
    expect(toSchema31(schema)).toEqual({ type: 'object', properties: { example: { type: 'string' }, nullable: { type: 'boolean', examples: [{ nullable: true }] } } });
  });
});

describe(exampleOf.name, () => {
  const schemas = {
    Entry: {
      type: 'object',
      required: ['id', 'status'],
      properties: { id: { type: 'integer', examples: [7] }, status: { enum: ['ok', 'no'] }, note: { type: 'string' }, ref: { type: 'string', examples: ['r'] } },
    },
  };

  it('builds an object from required properties and optional ones that carry their own example', () => {
    expect(exampleOf({ type: 'object', properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Entry' } } }, required: ['items'] }, schemas)).toEqual({
      items: [{ id: 7, status: 'ok', ref: 'r' }],
    });
  });

  it('takes the first alternative of a oneOf/anyOf and a nullable type’s non-null type', () => {
    expect(exampleOf({ anyOf: [{ $ref: '#/components/schemas/Entry' }, { type: 'null' }] }, schemas)).toEqual({ id: 7, status: 'ok', ref: 'r' });
    expect(exampleOf({ type: ['integer', 'null'], minimum: 1 }, schemas)).toBe(1);
  });
});

describe(finishOpenApiDocument.name, () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/public': {
        get: {
          responses: { '200': { description: '', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } } } },
        },
      },
      '/send': {
        post: {
          security: [{ basic: [] }],
          parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
          responses: { '200': { description: 'Sent' }, '401': { description: 'No' }, '405': { description: 'No' }, '429': { description: 'Busy' } },
        },
      },
    },
    components: { schemas: {} },
  };

  it('marks operations without security public and gives every response the headers of its status', () => {
    const doc = finishOpenApiDocument(document);
    expect(doc.paths['/public'].get.security).toEqual([]);
    expect(doc.paths['/public'].get.responses['200']).toMatchObject({ description: 'OK', content: { 'application/json': { example: { ok: false } } } });
    const headers = (status: string) => Object.keys(doc.paths['/send'].post.responses[status].headers).sort();
    expect(headers('200')).toEqual(['Idempotency-Replay', 'X-Request-Id']);
    expect(headers('401')).toEqual(['WWW-Authenticate', 'X-Request-Id']);
    expect(headers('405')).toEqual(['Allow', 'X-Request-Id']);
    expect(headers('429')).toEqual(['Retry-After', 'X-Request-Id']);
    expect(document.paths['/public'].get).not.toHaveProperty('security');
  });
});
