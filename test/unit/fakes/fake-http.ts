import { EventEmitter } from 'node:events';
import type { CallHandler, ExecutionContext, Type } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { Caller } from '../../../src/common/auth/authenticated-request';
import type { IdempotencyClaim } from '../../../src/idempotency/idempotency.service';
import { UnexpectedCall } from './strict';

/** The parts of a Fastify request the guards and interceptors read or set. */
export interface FakeRequest {
  id?: string;
  /** The client address as Fastify determines it (TRUST_PROXY applied). */
  ip?: string;
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
  /** The request's own logger: the guard binds the account to it. */
  log?: { bindings: Record<string, unknown>; setBindings(bindings: Record<string, unknown>): void };
  body?: unknown;
  caller?: Caller;
  idempotency?: IdempotencyClaim;
  inflightSlot?: { release(): Promise<void> };
  raw: { socket?: { destroyed: boolean } };
}

export function aRequest(overrides: Partial<FakeRequest> = {}): FakeRequest {
  return { id: 'req-1', headers: {}, query: {}, log: aRequestLog(), raw: { socket: { destroyed: false } }, ...overrides };
}

function aRequestLog(): NonNullable<FakeRequest['log']> {
  return {
    bindings: {},
    setBindings(bindings) {
      Object.assign(this.bindings, bindings);
    },
  };
}

/** A Fastify reply: chainable header/type/status, and the raw response's events ('close'). */
export class FakeReply {
  readonly headers: Record<string, string> = {};
  statusCode?: number;
  contentType?: string;
  readonly raw = new EventEmitter();

  header(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  type(contentType: string): this {
    this.contentType = contentType;
    return this;
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }
}

/** The route a request reached: its handler and controller, which carry the route's metadata. */
export interface Route {
  controller: Type<unknown>;
  handler: (...args: never[]) => unknown;
}

/** An HTTP ExecutionContext over a fake request and reply; anything not HTTP is an unexpected call. */
export function httpContext(request: FakeRequest, reply: FakeReply, route: Route): ExecutionContext {
  const unexpected = (name: string) => () => {
    throw new UnexpectedCall(`ExecutionContext.${name}`, 'an HTTP guard or interceptor has no use for it');
  };
  return {
    getType: () => 'http',
    getClass: () => route.controller,
    getHandler: () => route.handler,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply, getNext: unexpected('switchToHttp().getNext') }),
    getArgs: unexpected('getArgs'),
    getArgByIndex: unexpected('getArgByIndex'),
    switchToRpc: unexpected('switchToRpc'),
    switchToWs: unexpected('switchToWs'),
  } as unknown as ExecutionContext;
}

/** The route handler behind an interceptor: counts how often it was run and answers as told. */
export class FakeCallHandler implements CallHandler {
  calls = 0;

  constructor(private readonly answer: () => Observable<unknown>) {}

  handle(): Observable<unknown> {
    this.calls++;
    return this.answer();
  }
}
