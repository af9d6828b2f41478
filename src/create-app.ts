import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { createHttpApp, HttpAppOptions } from './bootstrap/create-app';
import type { AppConfig } from './config/app-config';

export interface CreateAppOptions extends HttpAppOptions {
  /** Tests mount probe modules on the very same pipeline. */
  extraModules?: Array<Type | DynamicModule>;
}

/** The API application exactly as production runs it: main.ts listens on it; tests and benchmarks drive it. */
export function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  return createHttpApp(AppModule.register(config, options.extraModules), config, options);
}
