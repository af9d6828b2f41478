import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { ErrorText } from '../common/errors/error-catalogue';

/** GET routes that change something (the simple send interface sends a message). */
const GETS_WITH_EFFECTS = new Set(['/simple/send-sms']);

/** Set before any guard runs, so refusals (401, 403, 429) carry it as well as the handler's answers. */
const noStore: onRequestHookHandler = (_request, reply, done) => {
  reply.header('Cache-Control', 'no-store');
  done();
};

/**
 * A GET that sends a message must behave unlike a GET to caches and link checkers. No answer of it is
 * ever stored by a cache (`Cache-Control: no-store` on every answer, errors included). Fastify answers
 * HEAD on every GET route by running the GET handler; a HEAD (a link checker, a proxy) must not send,
 * so its HEAD route answers 405 before anything else runs.
 */
export function shieldGetsWithEffects(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (!GETS_WITH_EFFECTS.has(route.url)) return;
    route.onRequest = [...[route.onRequest ?? []].flat(), noStore];
    if (route.method !== 'HEAD') return;
    route.handler = async (_request, reply) => {
      reply.code(405).header('Allow', 'GET').type('application/json; charset=utf-8');
      return JSON.stringify({ error: ErrorText.methodNotAllowed(['GET']) });
    };
  });
}
