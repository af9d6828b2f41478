import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written on behalf of one request (or of the work it created) carries. */
export interface LogContext {
  reqId?: string;
  accountId?: number;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `fn` (and everything it starts) with `context` on its log lines. */
export function runInLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the work in progress, or undefined outside any. Callers may fill it in (the account once known). */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}
