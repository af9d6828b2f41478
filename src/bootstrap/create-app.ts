import type { IncomingMessage } from 'node:http';
import type { DynamicModule, Type } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { LogController } from 'fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AuthenticatedRequest } from '../common/auth/authenticated-request';
import { AppConfig, trustProxyOption } from '../config/app-config';
import { ErrorEnvelopeFilter } from '../common/errors/error-envelope.filter';
import { parseInTurn } from '../common/http/body-turn';
import { parseJsonBody } from '../common/http/json-body-parser';
import { BODY_MEDIA_TYPES, requestBodyKind } from '../common/http/body-media-type';
import { envelopeClientErrorHandler } from '../common/http/client-error-handler';
import { failure } from '../common/errors/error-catalogue';
import { frameworkError, sendEnvelope } from '../common/errors/framework-errors';
import { RouteTable } from '../common/http/route-table';
import { REQUEST_ID_HEADER, requestIdFor } from '../common/http/request-id';
import { HttpMetrics } from '../metrics/http-metrics';
import { ValidPipe } from '../common/validation/valid.pipe';
import { createRootLogger, PinoNestLogger } from '../common/logging/logger';
import { observeRequests } from './observe-requests';
import { parseFormBody } from '../pages/form-body';
import { HtmlErrorPages } from '../pages/html-error-pages';
import { acceptsUploads, isPageRoute } from '../pages/page-route';
import { registerPages, SIGN_IN_PATH } from '../pages/register-pages';
import { setupOpenApi } from './openapi';
import { shieldGetsWithEffects } from './gets-with-effects';
import { LinkClicksService } from '../links/link-clicks.service';
import { registerShortLinkRoute } from './short-link-route';

/**
 * Builds the HTTP application exactly as production runs it; main.ts listens on it and the e2e tests
 * drive it with inject() or a real socket. Body parsing, 404/405 and the error envelope are set here.
 * Tests may mount probe modules on the very same pipeline and capture the log lines.
 */
export interface HttpAppOptions {
  logDestination?: DestinationStream;
}

export async function createHttpApp(rootModule: Type | DynamicModule, config: AppConfig, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config.logLevel, options.logDestination);
  const routes = new RouteTable();
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One line per request is written by observeRequests, once the account is known.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req: IncomingMessage) => requestIdFor(req.headers[REQUEST_ID_HEADER]),
    trustProxy: trustProxyOption(config.trustProxy),
    // What never reaches a route still answers in the envelope: requests Node's parser refuses and
    // URLs the router cannot decode.
    clientErrorHandler: envelopeClientErrorHandler((path) => routes.allowedMethods(path)),
    // Answered before the onRequest hooks (observeRequests), so the request id is set here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendEnvelope(reply.header('X-Request-Id', request.id), frameworkError(error)),
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRoute', (route) => routes.add(route.url, route.method));
  shieldGetsWithEffects(fastify);
  // The API's one Content-Type rule (body-media-type.ts), after onRequest so even a refusal carries its
  // request id. Unknown paths and methods are answered 404/405 whatever their body says; page routes
  // take only HTML forms (parseFormBody answers anything else with a page).
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.routeOptions.url === undefined || isPageRoute(request)) return done(null, payload);
    const alsoAccepted = (request.routeOptions.config as unknown as Record<string, string[] | undefined> | undefined)?.[BODY_MEDIA_TYPES];
    const body = requestBodyKind(request.method, request.headers, alsoAccepted);
    if (body === 'unsupported') return done(failure('unsupportedMediaType'));
    // One parser for every JSON body, however it was (or was not) declared.
    if (body === 'json') request.headers['content-type'] = 'application/json';
    done(null, payload);
  });
  fastify.addHook('onSend', async (request: AuthenticatedRequest) => {
    await request.inflightSlot?.release();
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: config.bodyLimitBytes }, (request, body, done) => {
    // An unknown path or method is answered 404/405 whatever its body says.
    if (!request.routeOptions.url) return done(null, undefined);
    const uploadLimit = acceptsUploads(request) ? config.pageUploadLimitBytes : 0;
    const parse = isPageRoute(request) ? (text: string) => parseFormBody(request.headers['content-type'], text, uploadLimit) : parseJsonBody;
    parseInTurn<unknown>(body as string, parse, done);
  });
  // An upload is read as bytes: a file that is not UTF-8 is for the page to explain (the multipart parser
  // marks it). Read as a string, its bytes would no longer add up to Content-Length and Fastify answers a bare 400.
  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: config.bodyLimitBytes }, (request, body, done) => {
    if (!request.routeOptions.url) return done(null, undefined);
    const bytes = body as Buffer;
    if (!isPageRoute(request)) return parseInTurn<unknown>(bytes.toString('utf8'), parseJsonBody, done);
    const uploadLimit = acceptsUploads(request) ? config.pageUploadLimitBytes : 0;
    parseInTurn<unknown, Buffer>(bytes, (b) => parseFormBody(request.headers['content-type'], b, uploadLimit), done);
  });

  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  // Routes are registered by init() below, so the hooks see every one of them.
  observeRequests(fastify, app.get(HttpMetrics));
  await registerPages(app, config);
  const filter = new ErrorEnvelopeFilter(routes, new HtmlErrorPages(config, SIGN_IN_PATH));
  app.useGlobalFilters(filter);
  registerShortLinkRoute(fastify, app.get(LinkClicksService), (error, request, reply) => filter.answer(error, request, reply));
  app.useGlobalPipes(new ValidPipe());
  app.enableShutdownHooks();
  if (config.docsEnabled) setupOpenApi(app);
  await app.init();
  await fastify.ready();
  return app;
}
