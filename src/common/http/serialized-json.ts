import { SLICE } from '../concurrency/slices';
import { nextBulkTurn } from '../concurrency/bulk-turns';

/**
 * A response body serialized ahead of the answer (a send's, while PostgreSQL stores its rows): the
 * controller sends `bytes` as they are, and an Idempotency-Key stores the same text, so a 10000-entry
 * answer is serialized once. Its UTF-8 bytes are encoded here too, not when the response is written (a
 * 10000-entry answer is about 3 MB: tens of milliseconds that would otherwise follow the commit).
 */
export class SerializedJson {
  readonly bytes: Buffer;
  private joined?: string;

  /** `text`: the JSON text, or its pieces in order. */
  constructor(
    private readonly pieces: string | readonly string[],
    bytes?: Buffer,
  ) {
    this.bytes = bytes ?? Buffer.from(this.text, 'utf8');
  }

  get text(): string {
    return (this.joined ??= typeof this.pieces === 'string' ? this.pieces : this.pieces.join(''));
  }
}

/**
 * JSON.stringify(body) as a SerializedJson, the array under `key` (body's last member) serialized and
 * encoded SLICE entries at a time with the event loop turning between slices: a 10000-entry answer in one
 * go held the process for tens of milliseconds, while requests beside it (in the default one-process
 * shape, a campaign's own API calls) waited. The text is exactly JSON.stringify's.
 */
export async function serializeInSlices<T extends object>(body: T, key: keyof T & string, size = SLICE): Promise<SerializedJson> {
  const items = body[key];
  const empty = JSON.stringify({ ...body, [key]: [] });
  const closing = `${JSON.stringify(key)}:[]}`;
  if (!Array.isArray(items) || !empty.endsWith(closing)) return new SerializedJson(JSON.stringify(body));
  const pieces = [empty.slice(0, -2)];
  const buffers = [Buffer.from(pieces[0], 'utf8')];
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextBulkTurn();
    const slice = JSON.stringify(items.slice(start, start + size)).slice(1, -1);
    const piece = start > 0 ? `,${slice}` : slice;
    pieces.push(piece);
    buffers.push(Buffer.from(piece, 'utf8'));
  }
  pieces.push(']}');
  buffers.push(Buffer.from(']}', 'utf8'));
  return new SerializedJson(pieces, Buffer.concat(buffers));
}

/** The JSON text of a response body: a SerializedJson's own, otherwise JSON.stringify's. */
export function jsonText(body: unknown): string {
  return body instanceof SerializedJson ? body.text : JSON.stringify(body);
}

/** The Content-Type Fastify gives a JSON body it serializes itself; a SerializedJson is sent with the same. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
