import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string;
  durationMs: number;
}

/** Response body read and dropped before the connection is cut (as undici's body.dump() does). */
export const RESPONSE_BODY_LIMIT = 128 * 1024;

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One POST's life on undici's dispatch interface, answered once through `finish`. Built for the deliverer's
 * burst rate: no response stream, promise or abort signal per attempt (undici's request() makes all three),
 * only the status kept and the body dropped as it arrives.
 * - The attempt's whole deadline is `timeoutMs` from construction: the request is aborted then. One that has
 *   not reached a connection yet is answered as timed out then, and aborted before it is written if it
 *   reaches one later.
 * - Once a final status is in (2xx–5xx), the outcome is that status: a body cut short afterwards (the
 *   deadline, a reset, or more than RESPONSE_BODY_LIMIT bytes) does not change it.
 */
export class WebhookAttemptHandler implements Dispatcher.DispatchHandlers {
  private status = 0;
  private received = 0;
  private abort?: (err?: Error) => void;
  private timedOut = false;
  private finished = false;
  private readonly deadline: NodeJS.Timeout;
  private readonly started = performance.now();

  constructor(
    private readonly timeoutMs: number,
    private readonly finish: (result: SendResult) => void,
  ) {
    this.deadline = setTimeout(() => this.expire(), timeoutMs);
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    if (this.timedOut) abort(new Error('webhook attempt deadline'));
  }

  onHeaders(statusCode: number): boolean {
    // 1xx: informational, a final status follows.
    if (statusCode >= 200) this.status = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.received += chunk.length;
    if (this.received > RESPONSE_BODY_LIMIT) this.abort?.(new Error('webhook response body over the limit'));
    return true;
  }

  onComplete(): void {
    this.byStatus();
  }

  onError(err: Error): void {
    if (this.status) return this.byStatus();
    const e = err as Error & { code?: string; cause?: Error };
    if (this.timedOut || TIMEOUT_CODES.has(e.code ?? '')) return this.timeout();
    this.done(false, null, (e.cause?.message ?? e.message).slice(0, 500));
  }

  /** Not yet on a connection (connecting, or queued): answered now, and never written once it gets one. */
  private expire(): void {
    this.timedOut = true;
    if (this.abort) this.abort(new Error('webhook attempt deadline'));
    else this.timeout();
  }

  private timeout(): void {
    this.done(false, null, `timeout after ${this.timeoutMs} ms`);
  }

  private byStatus(): void {
    const ok = this.status >= 200 && this.status < 300;
    this.done(ok, this.status, ok ? '' : `HTTP ${this.status}`);
  }

  private done(ok: boolean, status: number | null, error: string): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.deadline);
    this.finish({ ok, status, error, durationMs: performance.now() - this.started });
  }
}
