import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mapError } from './common/errors/error-mapping';
import { ErrorText } from './common/errors/error-catalogue';
import { createRootLogger, PinoNestLogger } from './common/logging/logger';
import { AppConfig } from './config/app-config';
import { toLivenessReport } from './health/health.mapper';
import { HealthService } from './health/health.service';
import { MetricsRegistry } from './metrics/metrics-registry';
import { WorkerHttpCloser } from './worker-http-closer';
import { WorkerModule } from './worker.module';

export interface WorkerProcess {
  context: INestApplicationContext;
  port: number;
}

/**
 * Starts a worker process. It mounts no API: a plain HTTP listener on PORT answers GET /health/live, GET
 * /health (with this process's SMPP binds and the backlog) and GET /metrics, so operators see what the
 * worker sees.
 */
export async function startWorker(config: AppConfig): Promise<WorkerProcess> {
  const context = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    logger: new PinoNestLogger(createRootLogger(config.logLevel)),
  });
  context.enableShutdownHooks();
  const health = context.get(HealthService);
  const metrics = context.get(MetricsRegistry);
  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/health/live') {
      json(res, 200, toLivenessReport());
    } else if (req.method === 'GET' && path === '/health') {
      health.check().then(
        (body) => json(res, 200, body),
        (err: unknown) => {
          const mapped = mapError(err);
          json(res, mapped.status, mapped.body, mapped.headers);
        },
      );
    } else if (req.method === 'GET' && path === '/metrics' && config.metricsEnabled) {
      metrics.render().then((text) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(text));
    } else {
      json(res, 404, { error: ErrorText.notFound });
    }
  });
  await new Promise<void>((resolve) => server.listen(config.port, '0.0.0.0', resolve));
  context.get(WorkerHttpCloser).attach(server);
  return { context, port: (server.address() as AddressInfo).port };
}
