import fc from 'fast-check';

type Json = Record<string, any>;

/** One operation of the served OpenAPI document. */
export interface Operation {
  method: string;
  path: string;
  operation: Json;
  /** Statuses the document lists for it. */
  statuses: Set<number>;
}

/** A request as the fuzzer sends it (and as a failing case is printed). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  operation: string;
}

export interface Credentials {
  live: string;
  test: string;
  /** Keys of the live account limited in scopes, addresses or messages a day (fuzz-run's key rules judge their answers). */
  limited?: string[];
}

const METHODS = ['get', 'post', 'patch', 'delete', 'put'];

/** Every operation the document serves, read from it (paths, parameters, bodies, statuses), nothing hard-coded. */
export function operationsOf(document: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method];
      if (operation) out.push({ method: method.toUpperCase(), path, operation, statuses: new Set(Object.keys(operation.responses ?? {}).map(Number)) });
    }
  }
  return out;
}

/** Strings chosen to break things: NUL and other controls, lone surrogates, bidi and zero-width marks, the edges of Unicode. */
const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\u202e\u202d',
  '\u200b\ufeff',
  '\uffff\ufffe',
  '\u{10ffff}',
  '😀👩‍👩‍👧‍👦',
  'ﷺ',
  '\r\n\t\u000b\u000c',
  '\u2028\u2029',
  '\u001b[31m',
  "'; DROP TABLE messages; --",
  '{first_name}{optout}{{}}',
  '%00%zz%',
  '../../etc/passwd',
  '9999-12-31',
  '0000-00-00',
  '-1',
  '1e309',
  'NaN',
  'true',
  '',
  ' ',
];

const hostileText = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(100, 5000, 70_000).map((n) => 'x'.repeat(n)),
);

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

/** Any JSON value of the wrong shape for a field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 2 ** 53, 1.5, -0),
  hostileText,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constantFrom(5, 40, 300).map(nested),
);

/** Values shaped by the document's schema for a field (examples, enums, formats, bounds). */
function shaped(schema: Json | undefined, components: Json, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  if (!s || depth > 4) return fc.constant(null);
  const examples = s.example !== undefined ? [fc.constant(s.example)] : [];
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  switch (s.type) {
    case 'string':
      if (s.format === 'uuid') return fc.oneof(fc.uuid(), ...examples);
      if (s.format === 'date-time')
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19)),
          ...examples,
        );
      return fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('0412345678', '61412345678', 'Brand', 'https://93.184.216.34/hook'), ...examples);
    case 'integer':
      return fc.oneof(fc.integer({ min: s.minimum ?? -5, max: s.maximum ?? 1_000_000 }), ...examples);
    case 'number':
      return fc.double({ noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(shaped(s.items, components, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = Object.entries((s.properties ?? {}) as Json);
      if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      return fc.record(Object.fromEntries(properties.map(([k, v]) => [k, shaped(v, components, depth + 1)])), { requiredKeys: (s.required ?? []) as string[] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function resolve(schema: Json | undefined, components: Json): Json | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = components.schemas?.[(s.$ref as string).split('/').pop()!];
  if (s?.allOf?.length === 1) return resolve(s.allOf[0], components);
  return s;
}

/** Mutations of a schema-shaped object: fields nulled, retyped, made hostile, extra fields, deep values. */
function mutated(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.array(fc.tuple(fc.nat(), wrongValue, fc.string({ maxLength: 12 })), { maxLength: 3 }), fc.nat(9)).map(([value, edits, mode]) => {
    if (mode === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const copy: Record<string, unknown> = structuredClone(value as Record<string, unknown>);
    const keys = Object.keys(copy);
    // The first array of objects (the messages of a send) is bent too.
    const list = Object.values(copy).find((v) => Array.isArray(v) && v.length > 0 && typeof v[0] === 'object' && v[0] !== null) as Array<Record<string, unknown>> | undefined;
    for (const [at, wrong, extra] of edits) {
      if (keys.length > 0 && at % 3 !== 2) copy[keys[at % keys.length]] = structuredClone(wrong);
      else copy[extra || '__proto__'] = structuredClone(wrong);
      const item = list?.[at % list.length];
      const itemKeys = Object.keys(item ?? {});
      if (item && typeof item === 'object' && itemKeys.length) item[itemKeys[at % itemKeys.length]] = structuredClone(wrong);
    }
    return copy;
  });
}

/** Bodies that are not the JSON object the API takes. */
const brokenBody = fc.constantFrom(
  '',
  ' ',
  '{',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '[]',
  'null',
  '"text"',
  '42',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"admin":true}}',
  `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
  '{"a":1}{"b":2}',
  '\u0000',
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  '',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json, text/plain',
  'application/json; charset=latin1',
  'application/json;;;',
  'application/vnd.api+json',
  '*/*',
  'x',
];
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Query values: documented shapes, and what no client should send. */
function queryValue(schema: Json | undefined, components: Json): fc.Arbitrary<string[]> {
  const one = fc.oneof(
    { weight: 3, arbitrary: shaped(schema, components).map((v) => (v === null || v === undefined ? '' : String(v))) },
    { weight: 2, arbitrary: hostileText.filter((t) => t.length < 20_000) },
  );
  return fc.oneof({ weight: 5, arbitrary: one.map((v) => [v]) }, { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 3 }) });
}

const headerSafe = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });

function encodeQuery(pairs: Array<[string, string[]]>): string {
  const parts = pairs.flatMap(([k, values]) => values.map((v) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'))}`));
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A request for one operation: schema-shaped, then bent in the ways the suite is for. */
export function requestFor(op: Operation, document: Json, credentials: Credentials): fc.Arbitrary<FuzzRequest> {
  const components = document.components ?? {};
  const parameters = ((op.operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
  const bodySchema = op.operation.requestBody?.content?.['application/json']?.schema;
  const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const query = fc.tuple(
    fc.subarray(parameters).chain((chosen) => fc.tuple(...chosen.map((p) => queryValue(p.schema, components).map((v) => [p.name as string, v] as [string, string[]])))),
    fc.array(fc.tuple(fc.string({ maxLength: 10 }), queryValue(undefined, components)), { maxLength: 2 }),
  );
  const withBody = op.method !== 'GET';
  const body: fc.Arbitrary<string | undefined> = withBody
    ? fc.oneof(
        { weight: 6, arbitrary: mutated(shaped(bodySchema ?? { type: 'object' }, components)).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: brokenBody },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : fc.constant(undefined);
  const auth = fc.oneof(
    { weight: 16, arbitrary: fc.constant(credentials.live) },
    { weight: 3, arbitrary: fc.constant(credentials.test) },
    ...(credentials.limited?.length ? [{ weight: 4, arbitrary: fc.constantFrom(...credentials.limited) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(undefined, 'Basic', 'Basic !!!', 'Bearer x', `Basic ${Buffer.from('nobody:nothing').toString('base64')}`) },
  );
  const idempotencyKey = fc.option(headerSafe, { freq: 4 });
  // A GET that documents the header (the purchase operations require it) gets one too.
  const takesIdempotencyKey = ((op.operation.parameters ?? []) as Json[]).some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key');
  const pathValues = fc.tuple(
    ...pathParams.map(() =>
      fc.oneof(
        fc.string({ maxLength: 12 }),
        hostileText.filter((t) => t.length < 200),
      ),
    ),
  );
  return fc.tuple(query, body, contentType, auth, idempotencyKey, pathValues).map(([[documented, extra], raw, type, authorization, key, values]) => {
    let path = op.path;
    // A value that is empty or a dot segment ('.', '..', even as %2E) is no value of the parameter: URL
    // parsers (WHATWG, curl) resolve dot segments away, so `/{code}` with '.' is a request for `/`.
    const segment = (value: string) => {
      const encoded = encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
      return encoded === '' || /^(\.|%2e){1,2}$/i.test(encoded) ? 'x' : encoded;
    };
    pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, segment(values[i]))));
    // Public pages answer browsers in HTML; the fuzzer is an API client, which gets the envelope.
    const headers: Record<string, string> = op.operation['x-public-page'] ? { accept: 'application/json' } : {};
    if (authorization !== undefined) headers.authorization = authorization;
    if (raw !== undefined && type !== undefined) headers['content-type'] = type;
    if (key !== null && (op.method === 'POST' || takesIdempotencyKey)) headers['idempotency-key'] = key;
    return { method: op.method, url: `${path}${encodeQuery([...documented, ...extra])}`, headers, body: raw, operation: `${op.method} ${op.path}` };
  });
}
