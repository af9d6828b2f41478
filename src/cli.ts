import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { UsageError } from './cli/cli-args';
import { CliModule } from './cli/cli.module';
import { CommandOutcome, COMMANDS } from './cli/commands';
import { DomainError } from './common/errors/domain-error';
import { UsageText } from './common/errors/error-catalogue';
import { ConfigError, loadConfig } from './config/app-config';
import { prepareDatabase } from './database/prepare-database';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

const USAGE = `usage: npm run -s cli -- <command> [flags]
commands:
  db:migrate
  account:create --name N [--owner-email E] [--test] [--credits C] [--sender S]... [--allow-duplicate-contacts]
  user:create --account ID --email E [--name N] [--owner] [--permission P]...
  account:show --account ID
  key:create --account ID --label L
  key:revoke --username U
  key:list --account ID
  key:purchases --username U (--enable|--disable) [--daily-limit AUD]
  sender:add --account ID --sender S [--type alpha|own|dedicated|shared]
  sender:remove --account ID --sender S
  credits:add --account ID --credits C [--reason R]
  ledger:verify [--account ID]   (exit 1 and the violations when the money does not add up)
  contacts:import --account ID --list NAME --file contacts.csv
  registration:list [--state submitted|approved|rejected]
  registration:approve --id ID
  registration:reject --id ID --reason R
  numbers:import --file numbers.csv
  card:add --account ID --card NUMBER   (simulated payment provider only: a test card such as 4242424242424242)
  card:list --account ID
  purchase:release --id ID   (a payment held for review: fulfil it)
  purchase:refund --id ID    (a payment held for review: refund it in full)
  purchase:reconcile [--all]  (settle purchases a crash or a lost provider answer left unsettled)
  renewals:run               (charge due renewals of bought numbers; release those past their grace period)`;

/** Operator commands: JSON on stdout; a clear message on stderr and a non-zero exit on failure. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const config = loadConfig(process.env, { logLevel: process.env.LOG_LEVEL ?? 'warn' });
  if (name === 'db:migrate') {
    const { created, applied } = await prepareDatabase(config, MIGRATIONS);
    process.stdout.write(`${JSON.stringify({ database_created: created, migrations_applied: applied })}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(UsageText.unknownCommand(name, USAGE));
  await prepareDatabase(config, MIGRATIONS);
  const app = await NestFactory.createApplicationContext(CliModule.register(config, { entities: ENTITIES, migrations: MIGRATIONS }), { logger: ['error'] });
  try {
    const result = await command(app, rest);
    if (result instanceof CommandOutcome) {
      process.stdout.write(`${JSON.stringify(result.output)}\n`);
      if (result.complaint) process.stderr.write(`error: ${result.complaint}\n`);
      return result.exitCode;
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof DomainError || err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    }
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
