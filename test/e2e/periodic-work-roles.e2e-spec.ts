import { ModulesContainer, NestFactory } from '@nestjs/core';
import * as account from '../../src/cli/commands/account.commands';
import * as contacts from '../../src/cli/commands/contacts.commands';
import * as credits from '../../src/cli/commands/credits.commands';
import * as key from '../../src/cli/commands/key.commands';
import * as purchase from '../../src/cli/commands/purchase.commands';
import * as sender from '../../src/cli/commands/sender.commands';
import * as senderIdentity from '../../src/cli/commands/sender-identity.commands';
import * as user from '../../src/cli/commands/user.commands';
import { startServices } from '../../src/cli/command-services';
import { loadConfig } from '../../src/config/app-config';
import { ENTITIES } from '../../src/entities';
import { MIGRATIONS } from '../../src/migrations';
import { PeriodicRunner } from '../../src/periodic/periodic-runner';
import { WorkerModule } from '../../src/worker.module';
import { startTestApp } from '../support/test-app';

const WORKER_ROLE_WORK = [
  'dispatch-sweep',
  'receipt-wait-close',
  'webhook-sweep',
  'purchase-reconciliation',
  'number-renewals',
  'click-folding',
  'idempotency-purge',
  'contact-import-sweep',
  'contact-import-purge',
  'balance-crossing-sweep',
  'short-link-purge',
  'webhook-purge',
  'early-receipt-purge',
  'partition-maintenance',
];

/** The periodic work a process runs: none when no module of it provides a runner. */
function periodicWorkOf(context: { get(type: typeof ModulesContainer): ModulesContainer }): string[] {
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

  it('runs none in the operator CLI, whichever commands’ modules it starts', async () => {
    const config = loadConfig(process.env);
    // Every command file (jest cannot load the CLI's lazy imports): the modules a CLI process may start.
    const commands = [account, contacts, credits, key, purchase, sender, senderIdentity, user].flatMap((file) => file.COMMANDS);
    const modules = [...new Set(commands.flatMap((command) => command.modules ?? []))];
    expect(modules.length).toBeGreaterThan(0);
    const services = await startServices(config, { entities: ENTITIES, migrations: MIGRATIONS }, modules);
    try {
      expect(periodicWorkOf(services)).toEqual([]);
    } finally {
      await services.close();
    }
  });
});
