import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/**
 * Checks a response against the served OpenAPI document: the path and method must be documented, the
 * status must be among the operation's responses, and the body must match its schema exactly
 * (undocumented fields fail, so the document cannot drift from what clients receive).
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly paths: Array<{ template: string; pattern: RegExp }>;

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    const components = toJsonSchema(structuredClone((document.components as Json) ?? {})) as Json;
    this.ajv.addSchema({ $id: 'doc', components }, 'doc');
    this.paths = Object.keys(document.paths as Json).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** Null when the response conforms; otherwise what is wrong. Paths the document lacks return a reason too. */
  check(method: string, url: string, status: number, body: unknown): string | null {
    const path = url.split('?')[0];
    const match = this.paths.find((p) => p.pattern.test(path));
    if (!match) return `path ${path} is not in the OpenAPI document`;
    const operation = ((this.document.paths as Json)[match.template] as Json)[method.toLowerCase()] as Json | undefined;
    if (!operation) return `${method} ${match.template} is not in the OpenAPI document`;
    const response = (operation.responses as Json)[String(status)] as Json | undefined;
    if (!response) return `status ${status} is not documented for ${method} ${match.template}`;
    // A download (CSV) documented as such is text, not JSON: its shape is the endpoint's own test's to check.
    if ((response.content as Json | undefined)?.['text/csv'] && typeof body === 'string') return null;
    const schema = ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
    if (!schema) return body === undefined || body === '' ? null : `no body schema documented for ${status} of ${method} ${match.template}`;
    return this.checkSchema(`${method} ${match.template} ${status}`, schema as Json, body);
  }

  /** Null when a webhook body conforms to its payload schema under the document's `webhooks`. */
  checkWebhook(name: string, body: unknown): string | null {
    const schema = (this.document.webhooks as Json | undefined)?.[name] as Json | undefined;
    const media = ((schema?.post as Json | undefined)?.requestBody as Json | undefined)?.content as Json | undefined;
    const payload = (media?.['application/json'] as Json | undefined)?.schema;
    if (!payload) return `webhook ${name} is not in the OpenAPI document`;
    return this.checkSchema(`webhook ${name}`, payload as Json, body);
  }

  /** Null when the value conforms to the schema (a document schema, `$ref`s into components allowed). */
  checkSchema(key: string, schema: Json, value: unknown): string | null {
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(toJsonSchema(structuredClone(schema))) as object);
      this.cache.set(key, validate);
    }
    if (validate(value)) return null;
    return `${key}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 500)}`;
  }
}

/** OpenAPI schema → JSON Schema for ajv: objects admit only documented properties (and a 3.0 `nullable`, should one appear, becomes a null type). */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = toJsonSchema(v);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.$ref || out.allOf) return { anyOf: [{ ...out }, { type: 'null' }] };
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\//, 'doc#/') : rewriteRefs(v);
  return out;
}
