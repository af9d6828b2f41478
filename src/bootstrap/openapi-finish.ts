/**
 * Turns what @nestjs/swagger generates into the OpenAPI 3.1 document clients are generated from. Pure
 * functions over the JSON, so each rule holds for every operation, including ones added later:
 * - 3.1 schemas: `nullable` becomes a `null` type, a schema `example` becomes `examples`;
 * - the response headers every client may read (X-Request-Id, Retry-After, WWW-Authenticate, Allow,
 *   Idempotency-Replay), declared once under components.headers and referenced by status;
 * - `security: []` on public operations (no Basic auth);
 * - on every operation with an `x-required-scope` (common/auth/api-scopes): the scope in its
 *   description and a 403 response naming the scope and allow-list refusals;
 * - an example on every operation: the 200 body and the request body, built from the schemas'
 *   property examples (the e2e suite validates each against its schema).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generated document is walked as plain JSON
type Json = Record<string, any>;

export const RESPONSE_HEADERS: Json = {
  'X-Request-Id': {
    description: 'The id of this request: the X-Request-Id you sent (printable ASCII, at most 128 characters), else one made for it. Quote it when asking about a request.',
    schema: { type: 'string', maxLength: 128 },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
  'WWW-Authenticate': { description: 'The authentication scheme to use.', schema: { type: 'string', enum: ['Basic realm="api"'] } },
  Allow: { description: 'The methods this path has, comma-separated.', schema: { type: 'string' }, example: 'GET, POST' },
  'Idempotency-Replay': {
    description: 'Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key and body: nothing was sent or charged again.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function finishOpenApiDocument(document: Json, extra: { webhooks?: Json; info?: Json } = {}): Json {
  const doc = structuredClone(document);
  doc.info = { ...doc.info, ...(extra.info ?? {}) };
  doc.components ??= {};
  doc.components.schemas = Object.fromEntries(Object.entries(doc.components.schemas ?? {}).map(([name, schema]) => [name, toSchema31(schema)]));
  doc.components.headers = { ...(doc.components.headers ?? {}), ...RESPONSE_HEADERS };
  for (const operation of operationsOf(doc.paths ?? {})) finishOperation(operation, doc.components.schemas);
  if (extra.webhooks) {
    doc.webhooks = structuredClone(extra.webhooks);
    for (const operation of operationsOf(doc.webhooks)) convertOperationSchemas(operation);
  }
  return doc;
}

function operationsOf(paths: Json): Json[] {
  return Object.values(paths).flatMap((item: Json) => HTTP_METHODS.filter((m) => item[m]).map((m) => item[m] as Json));
}

function finishOperation(operation: Json, schemas: Json): void {
  convertOperationSchemas(operation);
  operation.security ??= [];
  if (typeof operation['x-required-scope'] === 'string') documentScope(operation, operation['x-required-scope']);
  const idempotent = (operation.parameters ?? []).some((p: Json) => p.in === 'header' && p.name === 'Idempotency-Key');
  for (const [status, response] of Object.entries(operation.responses ?? {}) as Array<[string, Json]>) {
    if (!response.description) response.description = status === '200' ? 'OK' : status;
    const headers: Json = { 'X-Request-Id': ref('X-Request-Id') };
    if (status === '401') headers['WWW-Authenticate'] = ref('WWW-Authenticate');
    if (status === '405') headers.Allow = ref('Allow');
    if (status === '429' || status === '503') headers['Retry-After'] = ref('Retry-After');
    if (status === '200' && idempotent) headers['Idempotency-Replay'] = ref('Idempotency-Replay');
    response.headers = { ...(response.headers ?? {}), ...headers };
  }
  const ok = operation.responses?.['200']?.content?.['application/json'];
  if (ok?.schema && ok.example === undefined) ok.example = exampleOf(ok.schema, schemas);
  const body = operation.requestBody?.content?.['application/json'];
  if (body?.schema && body.example === undefined) body.example = exampleOf(body.schema, schemas);
}

/** The scope rule of one operation: said in its description and answered as a 403 (the envelope of its 401). */
function documentScope(operation: Json, scope: string): void {
  const refusals =
    scope === 'purchases'
      ? '`Purchases are not enabled for this API key` (the key lacks the purchases scope)'
      : `\`This API key does not have the ${scope} scope\`${scope === 'messages:send' ? '; `Daily message limit of N reached for this API key` (a send that would take the key over its daily cap, refused whole)' : ''}`;
  const rule = `Requires the API key scope \`${scope}\`.`;
  if (!String(operation.description ?? '').includes(rule)) operation.description = [operation.description, rule].filter(Boolean).join(' ');
  operation.responses ??= {};
  const forbidden: Json = operation.responses['403'] ?? { content: structuredClone(operation.responses['401']?.content ?? {}) };
  const why = `Refused for this API key: ${refusals}; \`This API key cannot be used from this address\` (outside the key's allow-list).`;
  forbidden.description = forbidden.description && forbidden.description !== '403' ? `${forbidden.description}. ${why}` : why;
  operation.responses['403'] = forbidden;
}

function ref(name: string): Json {
  return { $ref: `#/components/headers/${name}` };
}

/** Parameter and media-type schemas of an operation, in 3.1 form. */
function convertOperationSchemas(operation: Json): void {
  for (const parameter of operation.parameters ?? []) if (parameter.schema) parameter.schema = toSchema31(parameter.schema);
  for (const media of Object.values(operation.requestBody?.content ?? {}) as Json[]) if (media.schema) media.schema = toSchema31(media.schema);
  for (const response of Object.values(operation.responses ?? {}) as Json[]) {
    for (const media of Object.values(response.content ?? {}) as Json[]) if (media.schema) media.schema = toSchema31(media.schema);
  }
}

/** OpenAPI 3.0 schema → 3.1 (JSON Schema 2020-12): nullable → a null type; example → examples. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- returns whatever JSON it was given, converted
export function toSchema31(node: unknown): any {
  if (Array.isArray(node)) return node.map(toSchema31);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    // Keys of `properties` are property names, not keywords.
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toSchema31(v)])) : key === 'example' ? value : toSchema31(value);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.$ref || out.allOf) {
      const { description, ...rest } = out;
      return { ...(description ? { description } : {}), anyOf: [rest.allOf?.length === 1 && Object.keys(rest).length <= 2 ? rest.allOf[0] : rest, { type: 'null' }] };
    }
  }
  if ('example' in out) {
    out.examples = [out.example];
    delete out.example;
  }
  return out;
}

function hasOwnExample(schema: Json): boolean {
  return schema.example !== undefined || (Array.isArray(schema.examples) && schema.examples.length > 0);
}

/**
 * An example value for a schema: its own example, else its first enum value, else one built from its
 * parts (properties, items, the first alternative of a oneOf/anyOf).
 */
export function exampleOf(schema: Json, schemas: Json, depth = 0): unknown {
  if (depth > 8) return undefined;
  if (schema.$ref) return exampleOf(schemas[String(schema.$ref).split('/').pop()!] ?? {}, schemas, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(schema[key]) && schema[key].length) return exampleOf(schema[key][0], schemas, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      // Required properties, and optional ones that carry an example of their own (an optional field
      // without one, such as the error of a result entry, would make the example say something false).
      const required = new Set<string>(schema.required ?? []);
      const out: Json = {};
      for (const [name, property] of Object.entries(schema.properties ?? {}) as Array<[string, Json]>) {
        if (required.has(name) || hasOwnExample(property)) out[name] = exampleOf(property, schemas, depth + 1);
      }
      return out;
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items, schemas, depth + 1)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'string':
      return schema.format === 'uuid' ? '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b' : schema.format === 'uri' ? 'https://example.com' : 'text';
    default:
      return schema.properties ? exampleOf({ ...schema, type: 'object' }, schemas, depth + 1) : undefined;
  }
}
