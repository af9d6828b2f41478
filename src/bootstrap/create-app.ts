import type { IncomingMessage } from 'node:http';
import type { DynamicModule, Type } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { LogController } from 'fastify';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AuthenticatedRequest } from '../common/auth/authenticated-request';
import { AppConfig, trustProxyOption } from '../config/app-config';
import { ErrorEnvelopeFilter } from '../common/errors/error-envelope.filter';
import { parseJsonBody } from '../common/http/json-body-parser';
import { RouteTable } from '../common/http/route-table';
import { REQUEST_ID_HEADER, requestIdFor } from '../common/http/request-id';
import { HttpMetrics } from '../metrics/http-metrics';
import { ValidPipe } from '../common/validation/valid.pipe';
import { createRootLogger, PinoNestLogger } from '../common/logging/logger';
import { observeRequests } from './observe-requests';
import { parseFormBody } from '../pages/form-body';
import { HtmlErrorPages } from '../pages/html-error-pages';
import { isPageRoute } from '../pages/page-route';
import { registerPages, SIGN_IN_PATH } from '../pages/register-pages';
import { setupOpenApi } from './openapi';
import { refuseHeadOnGetsWithEffects } from './refuse-head';

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
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One line per request is written by observeRequests, once the account is known.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req: IncomingMessage) => requestIdFor(req.headers[REQUEST_ID_HEADER]),
    trustProxy: trustProxyOption(config.trustProxy),
  });
  const fastify = adapter.getInstance();
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.url, route.method));
  refuseHeadOnGetsWithEffects(fastify);
  fastify.addHook('onSend', async (request: AuthenticatedRequest) => {
    await request.inflightSlot?.release();
  });
  // API bodies are JSON whatever their declared type; an empty one is no body. Page routes take only
  // HTML forms (application/x-www-form-urlencoded).
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: config.bodyLimitBytes }, (request, body, done) => {
    // An unknown path or method is answered 404/405 whatever its body says.
    if (!request.routeOptions.url) return done(null, undefined);
    try {
      done(null, isPageRoute(request) ? parseFormBody(request.headers['content-type'], body as string) : parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  // Routes are registered by init() below, so the hooks see every one of them.
  observeRequests(fastify, app.get(HttpMetrics));
  await registerPages(app, config);
  app.useGlobalFilters(new ErrorEnvelopeFilter(routes, new HtmlErrorPages(config, SIGN_IN_PATH)));
  app.useGlobalPipes(new ValidPipe());
  app.enableShutdownHooks();
  if (config.docsEnabled) setupOpenApi(app);
  await app.init();
  await fastify.ready();
  return app;
}
