import type { FastifyInstance } from 'fastify';
import { runInLogContext } from '../common/logging/log-context';
import { redactUrl } from '../common/logging/redact-url';
import type { HttpMetrics } from '../metrics/http-metrics';

const COUNTED_METHODS = new Set(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);
/** Probes and scrapes arrive every few seconds from load balancers and Prometheus: their lines are debug. */
const PROBES = new Set(['/health', '/health/live', '/metrics']);

/**
 * Request tracing and HTTP metrics. Every answer carries X-Request-Id (the caller's own, or one made for
 * it: see requestIdFor); everything done for the request runs in a log context holding that id (and the
 * account, once authenticated); one line per request is logged when it is answered, its URL without the
 * tokens of single-use links (Fastify's own request lines are off: they come before authentication, so
 * they could not name the account).
 */
export function observeRequests(fastify: FastifyInstance, metrics: HttpMetrics): void {
  const routes: Array<{ route: string; method: string }> = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (COUNTED_METHODS.has(method)) routes.push({ route: route.url, method });
  });
  fastify.addHook('onReady', (done) => {
    metrics.routesKnown(routes);
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    runInLogContext({ reqId: request.id }, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    metrics.observe(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    const line = { method: request.method, url: redactUrl(request.url), route, status: reply.statusCode, durationMs: Math.round(reply.elapsedTime * 10) / 10 };
    if (route !== undefined && PROBES.has(route) && reply.statusCode < 400) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
    done();
  });
}
