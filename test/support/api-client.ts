import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenApiValidator } from './openapi-validator';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface RequestOptions {
  auth?: string;
  body?: unknown;
  /** Sent as is, for malformed-body tests. */
  rawBody?: string | Buffer;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** The client address the request comes from (default 127.0.0.1). */
  remoteAddress?: string;
}

/**
 * Drives the app in-process with inject() and checks every documented response against the served
 * OpenAPI document, so each e2e test also proves the document true.
 */
export class ApiClient {
  private constructor(
    private readonly app: NestFastifyApplication,
    private readonly validator: OpenApiValidator,
  ) {}

  static async forApp(app: NestFastifyApplication): Promise<ApiClient> {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
    return new ApiClient(app, new OpenApiValidator(res.json()));
  }

  /** What is wrong with a webhook body against the document's `webhooks` payload schema, or null. */
  webhookProblem(name: string, body: unknown): string | null {
    return this.validator.checkWebhook(name, body);
  }

  get = (url: string, options?: RequestOptions) => this.request('GET', url, options);
  post = (url: string, options?: RequestOptions) => this.request('POST', url, options);
  patch = (url: string, options?: RequestOptions) => this.request('PATCH', url, options);
  delete = (url: string, options?: RequestOptions) => this.request('DELETE', url, options);

  async request(method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.auth) headers.authorization = options.auth;
    let payload: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      query: stringify(options.query),
      headers,
      payload,
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    const text = res.body;
    let body: unknown = text;
    if ((res.headers['content-type'] ?? '').toString().includes('application/json') && text !== '') body = JSON.parse(text);
    const problem = this.validator.check(method, url, res.statusCode, body);
    // Unknown paths and methods (404/405) are not in the document by nature; everything else must be.
    if (problem && !(res.statusCode === 404 && body && (body as { error?: string }).error === 'Not found') && res.statusCode !== 405) {
      throw new Error(`response does not match the OpenAPI document: ${problem}`);
    }
    return { status: res.statusCode, body, text, headers: res.headers as ApiResponse['headers'] };
  }
}

function stringify(query?: Record<string, string | number | boolean>): Record<string, string> | undefined {
  if (!query) return undefined;
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
}
