import type { FastifyInstance } from 'fastify';
import { ErrorText } from '../common/errors/error-catalogue';

/** GET routes that change something (the simple send interface sends a message). */
const GETS_WITH_EFFECTS = new Set(['/simple/send-sms']);

/**
 * Fastify answers HEAD on every GET route by running the GET handler. For a GET that sends a message a
 * HEAD (a link checker, a proxy) must not, so its HEAD route answers 405 before anything else runs.
 */
export function refuseHeadOnGetsWithEffects(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD' || !GETS_WITH_EFFECTS.has(route.url)) return;
    route.handler = async (_request, reply) => {
      reply.code(405).header('Allow', 'GET').type('application/json; charset=utf-8');
      return JSON.stringify({ error: ErrorText.methodNotAllowed(['GET']) });
    };
  });
}
