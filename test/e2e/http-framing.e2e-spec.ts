import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  closed: boolean;
}

/** Writes bytes no HTTP client would send and reads the one response; resolves when the server closes the connection. */
function rawRequest(port: number, bytes: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const raw = rest.join('\r\n\r\n');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // left as text: the assertion shows it
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, closed: true });
    });
    // Not end(): Node's server drops a request whose client half-closes before the answer.
    socket.write(bytes);
  });
}

/** What Node's HTTP parser refuses never reaches a route; it must still be answered in the envelope. */
describe('Requests refused by the HTTP parser', () => {
  let t: TestApp;
  let acct: TestAccount;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    acct = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const auth = () => `Authorization: ${acct.auth}\r\n`;

  it('answers an unknown method on a known path 405 with Allow, in the envelope', async () => {
    const res = await rawRequest(port, `FOO /v1/messages HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`);
    expect([res.status, res.body, res.headers.allow]).toEqual([405, { error: 'Invalid request method. Allowed methods: GET, POST, DELETE' }, 'GET, POST, DELETE']);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('gives each refusal an X-Request-Id of its own making, as every answer has one (the headers sent are what could not be read)', async () => {
    const refusals = [
      `FOO /v1/messages HTTP/1.1\r\nHost: x\r\nX-Request-Id: mine-1\r\n\r\n`,
      'GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Request-Id: mine-2\r\nnonsense\r\n\r\n',
      `GET /v1/messages?custom_ref=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    ];
    const answers = await Promise.all(refusals.map((bytes) => rawRequest(port, bytes)));
    expect(answers.map((res) => res.status)).toEqual([405, 400, 414, 431]);
    const ids = answers.map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(refusals.length);
  });

  it('answers an unknown method on an unknown path 404 Not found', async () => {
    const res = await rawRequest(port, 'FOO /v1/nowhere HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([res.status, res.body]).toEqual([404, { error: 'Not found' }]);
  });

  it.each([
    ['bad chunking', `POST /v1/lists HTTP/1.1\r\nHost: x\r\n${'AUTH'}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['a space in the target', 'GET /v1/messages?custom_ref=a b HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a space in a header name', 'GET /v1/account HTTP/1.1\r\nHost: x\r\nX Test: 1\r\n\r\n'],
    ['both Content-Length and chunked', 'POST /v1/lists HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}'],
    ['a header without a colon', 'GET /v1/account HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n'],
    ['a NUL in a header value', 'GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Test: a\u0000b\r\n\r\n'],
  ])('answers %s 400 Malformed HTTP request', async (_what, bytes) => {
    const res = await rawRequest(port, bytes.replace('AUTH', auth()));
    expect([res.status, res.body, res.headers.connection]).toEqual([400, { error: 'Malformed HTTP request' }, 'close']);
  });

  it('answers a query string over 16 KB 414 Request URL is too long', async () => {
    const res = await rawRequest(port, `GET /v1/messages?custom_ref=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`);
    expect([res.status, res.body]).toEqual([414, { error: 'Request URL is too long' }]);
  });

  it('answers headers over 16 KB 431 Request headers are too large', async () => {
    const res = await rawRequest(port, `GET /v1/account HTTP/1.1\r\nHost: x\r\n${auth()}X-Pad: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    expect([res.status, res.body]).toEqual([431, { error: 'Request headers are too large' }]);
  });

  it('answers a path whose percent-encoding does not decode 400 in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/%E0%A4%A', headers: { authorization: acct.auth, 'x-request-id': 'undecodable-1' } });
    expect([res.statusCode, res.json(), res.headers['x-request-id']]).toEqual([400, { error: 'Malformed HTTP request' }, 'undecodable-1']);
  });

  it('keeps serving after all of that', async () => {
    const res = await rawRequest(port, `GET /v1/account HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
    expect(res.status).toBe(200);
  });
});
