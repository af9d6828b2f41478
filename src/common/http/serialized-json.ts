/**
 * A response body serialized ahead of the answer (a send's, while PostgreSQL stores its rows): the
 * controller sends `text` as it is, and an Idempotency-Key stores the same text, so a 10000-entry answer
 * is serialized once.
 */
export class SerializedJson {
  constructor(readonly text: string) {}
}

/** The JSON text of a response body: a SerializedJson's own, otherwise JSON.stringify's. */
export function jsonText(body: unknown): string {
  return body instanceof SerializedJson ? body.text : JSON.stringify(body);
}

/** The Content-Type Fastify gives a JSON body it serializes itself; a SerializedJson is sent with the same. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
