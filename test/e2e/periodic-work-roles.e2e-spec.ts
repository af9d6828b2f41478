import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { CliModule } from '../../src/cli/cli.module';
import { loadConfig } from '../../src/config/app-config';
import { ENTITIES } from '../../src/entities';
import { MIGRATIONS } from '../../src/migrations';
import { PeriodicRunner } from '../../src/periodic/periodic-runner';
import { WorkerModule } from '../../src/worker.module';
import { startTestApp } from '../support/test-app';

const WORKER_ROLE_WORK = ['dispatch-sweep', 'webhook-sweep', 'purchase-reconciliation', 'number-renewals', 'click-folding', 'idempotency-purge'];

/** The periodic work a process runs: none when no module of it provides a runner. */
function periodicWorkOf(context: INestApplicationContext): string[] {
  const runners = [...context.get(ModulesContainer).values()].flatMap((module) => {
    const wrapper = module.providers.get(PeriodicRunner);
    return wrapper ? [wrapper.instance as PeriodicRunner] : [];
  });
  expect(runners.length).toBeLessThanOrEqual(1);
  return runners[0]?.names() ?? [];
}

jest.setTimeout(120_000);

describe('Periodic work per role', () => {
  it('runs none in an APP_ROLE=api process', async () => {
    const t = await startTestApp({ appRole: 'api' });
    try {
      expect(periodicWorkOf(t.app)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('runs the worker role’s work in an APP_ROLE=all process', async () => {
    const t = await startTestApp({ appRole: 'all' });
    try {
      expect(periodicWorkOf(t.app)).toEqual(WORKER_ROLE_WORK);
    } finally {
      await t.close();
    }
  });

  it('runs the worker role’s work in an APP_ROLE=worker process, leaving out what is switched off', async () => {
    const config = loadConfig(process.env, { appRole: 'worker', purchaseJobsIntervalMs: 0 });
    const context = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: false });
    try {
      expect(periodicWorkOf(context)).toEqual(WORKER_ROLE_WORK.filter((name) => name !== 'purchase-reconciliation' && name !== 'number-renewals'));
    } finally {
      await context.close();
    }
  });

  it('runs none in the operator CLI', async () => {
    const config = loadConfig(process.env);
    const context = await NestFactory.createApplicationContext(CliModule.register(config, { entities: ENTITIES, migrations: MIGRATIONS }), { logger: false });
    try {
      expect(periodicWorkOf(context)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
