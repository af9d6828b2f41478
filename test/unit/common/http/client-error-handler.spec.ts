import { clientErrorFor, rawErrorResponse } from '../../../../src/common/http/client-error-handler';
import { frameworkError } from '../../../../src/common/errors/framework-errors';

const allowed = (path: string) => (path === '/v1/messages' ? ['GET', 'POST', 'DELETE'] : []);
const err = (code: string, raw?: string) => Object.assign(new Error(code), { code, rawPacket: raw === undefined ? undefined : Buffer.from(raw, 'latin1') });

describe(clientErrorFor.name, () => {
  it('says 414 when the request line alone filled the 16 KB limit, 431 when the headers did', () => {
    expect(clientErrorFor(err('HPE_HEADER_OVERFLOW', `GET /v1/messages?x=${'a'.repeat(16_000)}`), allowed).error.message).toBe('Request URL is too long');
    expect(clientErrorFor(err('HPE_HEADER_OVERFLOW', `GET /v1/messages?x=${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n`), allowed).error.message).toBe('Request URL is too long');
    expect(clientErrorFor(err('HPE_HEADER_OVERFLOW', `GET /v1/account HTTP/1.1\r\nX-Pad: ${'a'.repeat(16_000)}`), allowed).error.message).toBe('Request headers are too large');
  });

  it('answers an unknown method 405 with Allow on a known path, 404 elsewhere, 400 when the line is unreadable', () => {
    expect(clientErrorFor(err('HPE_INVALID_METHOD', 'FOO /v1/messages HTTP/1.1\r\n'), allowed)).toMatchObject({
      error: { message: 'Invalid request method. Allowed methods: GET, POST, DELETE' },
      headers: { Allow: 'GET, POST, DELETE' },
    });
    expect(clientErrorFor(err('HPE_INVALID_METHOD', 'FOO /elsewhere HTTP/1.1\r\n'), allowed)).toMatchObject({ error: { message: 'Not found' }, headers: undefined });
    expect(clientErrorFor(err('HPE_INVALID_METHOD', 'F\u0000O'), allowed).error.message).toBe('Malformed HTTP request');
  });

  it('maps timeouts, chunk-extension floods and everything else', () => {
    expect(clientErrorFor(err('ERR_HTTP_REQUEST_TIMEOUT'), allowed).error.message).toBe('Request timed out');
    expect(clientErrorFor(err('HPE_CHUNK_EXTENSIONS_OVERFLOW'), allowed).error.message).toBe('Request body is too large');
    expect(clientErrorFor(err('HPE_INVALID_CHUNK_SIZE'), allowed).error.message).toBe('Malformed HTTP request');
  });
});

describe(rawErrorResponse.name, () => {
  it('writes a complete HTTP/1.1 response in the envelope that closes the connection', () => {
    const text = rawErrorResponse(clientErrorFor(err('HPE_INVALID_METHOD', 'FOO /v1/messages HTTP/1.1\r\n'), allowed), 'id-1');
    const body = '{"error":"Invalid request method. Allowed methods: GET, POST, DELETE"}';
    expect(text).toBe(
      `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\nAllow: GET, POST, DELETE\r\nX-Request-Id: id-1\r\nConnection: close\r\n\r\n${body}`,
    );
  });
});

describe(frameworkError.name, () => {
  it('answers an undecodable path 400 and an over-long path parameter 404', () => {
    expect(frameworkError(err('FST_ERR_BAD_URL')).message).toBe('Malformed HTTP request');
    expect(frameworkError(err('FST_ERR_MAX_PARAM_LENGTH')).message).toBe('Not found');
  });
});
