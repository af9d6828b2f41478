import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { createApp } from '../../src/create-app';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { numericSenderValue } from '../../src/senders/sender-value';
import { ApiClient } from './api-client';
import { ProbeModule } from './probe.module';
import { ProbePagesModule } from './probe-pages.module';

export interface TestApp {
  app: NestFastifyApplication;
  api: ApiClient;
  config: AppConfig;
  close(): Promise<void>;
}

/** The real application on the run's database and Redis prefix, with tunables shrunk where a test asks. */
export async function startTestApp(
  overrides: Partial<AppConfig> = {},
  options: { probe?: boolean; probePages?: boolean; logDestination?: DestinationStream } = {},
): Promise<TestApp> {
  const config = loadConfig(process.env, overrides);
  const app = await createApp(config, {
    extraModules: [...(options.probe ? [ProbeModule] : []), ...(options.probePages ? [ProbePagesModule] : [])],
    logDestination: options.logDestination,
  });
  const api = await ApiClient.forApp(app);
  return { app, api, config, close: () => app.close() };
}

export interface TestAccount {
  accountId: number;
  username: string;
  password: string;
  auth: string;
}

let counter = 0;

/**
 * A fresh account with its own senders and first key, made through the same service the CLI uses. A
 * dedicated number belongs to one account at a time, so its numbers are first taken off the file's earlier
 * accounts (earlier tests reuse 61400000001), as an operator would with sender:remove.
 */
export async function createAccount(
  app: NestFastifyApplication,
  options: { test?: boolean; credits?: number; senders?: string[]; allowDuplicateContacts?: boolean; name?: string } = {},
): Promise<TestAccount> {
  const numbers = (options.senders ?? []).map(numericSenderValue).filter((n) => n !== null);
  if (numbers.length > 0) {
    await app
      .get(DataSource)
      .query(`UPDATE senders SET status = 'removed', is_default = false WHERE value = ANY($1::text[]) AND status = 'active' AND type IN ('dedicated', 'shared')`, [numbers]);
  }
  const { account, key } = await app.get(AccountsService).create({
    name: options.name ?? `Test account ${process.pid}-${++counter}`,
    isTest: options.test ?? false,
    allowDuplicateContacts: options.allowDuplicateContacts ?? false,
    creditsHundredths: Math.round((options.credits ?? 0) * 100),
    senders: options.senders ?? ['TestBrand'],
  });
  return { accountId: account.id, username: key.username, password: key.password, auth: basicAuth(key.username, key.password) };
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
