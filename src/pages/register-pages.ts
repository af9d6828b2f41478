import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyStatic from '@fastify/static';
import fastifyView from '@fastify/view';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '../config/app-config';
import type { PageRequest } from './page-request';
import { isPageRoute } from './page-route';
import { ASSETS_DIR, createHandlebars, discoverPartials, LAYOUT, VIEWS_ROOT } from './view-engine';

/** Where a signed-out browser is sent (with `?next=` back); the dashboard serves it. */
export const SIGN_IN_PATH = '/sign-in';
/** Where a user whose account requires two-factor sign-in is sent until they set it up. */
export const TWO_FACTOR_SETUP_PATH = '/profile/two-factor';

/**
 * Strict: only our own files, no inline script or style, no framing, forms post only to us. The copy
 * button is an external script (/assets/app.js) for that reason.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Adds what server-rendered pages need to the Fastify app, before Nest registers its routes: cookies,
 * security headers (applied to page routes and HTML error pages only, so the API's responses stay as
 * they are), the Handlebars view engine with the shared layout and partials, the stylesheet and script
 * under /assets/, and the page status hook.
 */
export async function registerPages(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(fastifyCookie);
  const helmetOptions = { contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY } };
  // reply.helmet() for the HTML error pages of other routes.
  await fastify.register(fastifyHelmet, { global: false, ...helmetOptions });
  // Page routes carry the same headers, worked out once: a route's own helmet options would make the
  // plugin build helmet, CSP directives included, at every request (an eighth of a redirect's CPU).
  const securityHeaders = helmetHeaders(helmetOptions);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isPageRoute(request)) reply.headers(securityHeaders);
    done();
  });
  await fastify.register(fastifyView, {
    engine: { handlebars: createHandlebars() },
    root: VIEWS_ROOT,
    layout: LAYOUT,
    options: { partials: discoverPartials() },
    // Development re-reads templates on every render, so edits show without a restart.
    production: config.nodeEnv !== 'development',
  });
  await fastify.register(fastifyStatic, {
    root: ASSETS_DIR,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    maxAge: '1h',
    setHeaders: (reply) => reply.header('X-Content-Type-Options', 'nosniff'),
  });
  // Nest writes the route's own status; a page's chosen one (a form's 400, a 303) is applied here.
  fastify.addHook('onSend', async (request, reply, payload) => {
    const status = (request as PageRequest).pageStatus;
    if (status !== undefined) reply.code(status);
    return payload;
  });
}

/** The headers helmet sets with these options (static: no CSP nonces), captured from one run of its middleware. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}
