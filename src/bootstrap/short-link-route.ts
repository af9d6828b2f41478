import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LinkClicksService } from '../links/link-clicks.service';
import { SHORT_LINK_ROUTE } from '../links/short-link.openapi';
import { PAGE_ROUTE_CONFIG, PUBLIC_LINK_ROUTE_CONFIG } from '../pages/page-route';

/**
 * `{SHORT_LINK_BASE}/{code}`: the redirect behind a shortened URL (no sign-in), served by a bare Fastify
 * route instead of a Nest controller. A campaign's links are clicked at once, and Nest's pipeline (global
 * guards that let a public route through, the page interceptor's observable) was most of node's time per
 * redirect; none of it applies to a public GET. What does apply stays: the Fastify hooks every route has
 * (request id, log line, metrics), the page route config (security headers set once per request from
 * headers computed once, HTML error pages, the link's own 404 text), the misses throttle and the single
 * counted click (LinkClicksService.follow), and errors answered by the global filter as for any route.
 */
export function registerShortLinkRoute(
  fastify: FastifyInstance,
  clicks: LinkClicksService,
  answerError: (error: unknown, request: FastifyRequest, reply: FastifyReply) => void,
): void {
  fastify.get<{ Params: { code: string } }>(SHORT_LINK_ROUTE, { config: { ...PAGE_ROUTE_CONFIG, ...PUBLIC_LINK_ROUTE_CONFIG } }, async (request, reply) => {
    let location: string;
    try {
      location = await clicks.follow(request.params.code, request.method, request.headers['user-agent'], request.ip);
    } catch (error) {
      answerError(error, request, reply);
      return reply;
    }
    // As the page layer answers a redirect: never cached, an empty body.
    return reply.code(302).header('Cache-Control', 'no-store').header('Location', location).send('');
  });
}
