/**
 * A response body serialized ahead of the answer (a send's, while PostgreSQL stores its rows): the
 * controller sends `bytes` as they are, and an Idempotency-Key stores the same text, so a 10000-entry
 * answer is serialized once. Its UTF-8 bytes are encoded here too, not when the response is written (a
 * 10000-entry answer is about 3 MB: tens of milliseconds that would otherwise follow the commit).
 */
export class SerializedJson {
  readonly bytes: Buffer;

  constructor(readonly text: string) {
    this.bytes = Buffer.from(text, 'utf8');
  }
}

/** The JSON text of a response body: a SerializedJson's own, otherwise JSON.stringify's. */
export function jsonText(body: unknown): string {
  return body instanceof SerializedJson ? body.text : JSON.stringify(body);
}

/** The Content-Type Fastify gives a JSON body it serializes itself; a SerializedJson is sent with the same. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
