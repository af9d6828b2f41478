import { currentLogContext } from './log-context';

/**
 * Once a request is authenticated, its remaining log lines name the account: the request's own logger
 * (Fastify's child, which already carries reqId) and the ambient context that services' lines read.
 */
export function attributeRequestToAccount(requestLog: unknown, accountId: number): void {
  const context = currentLogContext();
  if (context) context.accountId = accountId;
  const log = requestLog as { setBindings?: (bindings: Record<string, unknown>) => void } | undefined;
  log?.setBindings?.({ accountId });
}
