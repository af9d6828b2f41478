import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { createRootLogger, PinoNestLogger } from './common/logging/logger';
import { WorkerModule } from './worker.module';

export async function startWorker(config: AppConfig): Promise<INestApplicationContext> {
  const context = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    logger: new PinoNestLogger(createRootLogger(config.logLevel)),
  });
  context.enableShutdownHooks();
  return context;
}
