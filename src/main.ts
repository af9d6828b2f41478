import 'reflect-metadata';
import { createApp } from './create-app';
import { createRootLogger } from './common/logging/logger';
import { ConfigError, loadConfig, startupWarnings } from './config/app-config';
import { prepareDatabase } from './database/prepare-database';
import { MIGRATIONS } from './migrations';
import { startWorker } from './worker';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createRootLogger(config.logLevel);
  for (const warning of startupWarnings(config)) log.warn(warning);
  const { created, applied } = await prepareDatabase(config, MIGRATIONS);
  log.info({ created, applied, role: config.appRole }, 'database ready');
  if (config.appRole === 'worker') {
    const worker = await startWorker(config);
    log.info({ port: worker.port }, 'worker started');
    return;
  }
  // APP_ROLE=all runs the API and the workers in one process (AppModule adds the worker module for
  // that role); api runs the API alone.
  const app = await createApp(config);
  await app.listen({ port: config.port, host: '0.0.0.0' });
  const address = app.getHttpServer().address();
  log.info({ port: typeof address === 'object' && address ? address.port : config.port }, 'listening');
  log.info(
    { dashboardUrl: config.dashboardUrl, shortLinkBase: config.shortLinkBase },
    'emailed links start with DASHBOARD_URL; short and opt-out links in texts with SHORT_LINK_BASE',
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
