import type { OpenAPIObject } from '@nestjs/swagger';
import { StatusDescription } from '../common/errors/error-catalogue';

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Statuses any operation can answer before its own code runs, added to every operation of the document
 * so clients (and the fuzz suite) see them: a malformed request (400), a client too slow to send its
 * headers (408), a URL or headers over Node's 16 KB limit (414, 431) and, where a body is read, a body
 * that is too large, not JSON or not declared as JSON (413, 400, 415). All in the error envelope.
 */
export function addTransportResponses(document: OpenAPIObject): OpenAPIObject {
  const envelope = { $ref: '#/components/schemas/ErrorEnvelopeDto' };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const statuses = [400, 408, 414, 431, ...(BODY_METHODS.has(method) ? [413, 415] : [])];
      for (const status of statuses) {
        operation.responses[status] ??= { description: StatusDescription[status], content: { 'application/json': { schema: envelope } } };
      }
    }
  }
  return document;
}
