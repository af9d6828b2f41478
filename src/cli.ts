import * as nodeModule from 'node:module';
import { parseCommandArgs, UsageError, wantsHelp } from './cli/cli-args';
import { CommandOutcome } from './cli/command';
import { allCommands, findCommand } from './cli/command-table';
import { commandHelp, commandList } from './cli/help';
import { UsageText } from './common/errors/error-catalogue';

// Node 22.1+ keeps compiled code between runs (the CLI loads a thousand files on every call); absent on Node 20.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** Operator commands: JSON on stdout; a clear message on stderr and a non-zero exit on failure. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const list = commandList(await allCommands());
    if (!name) {
      process.stderr.write(`${list}\n`);
      return 2;
    }
    process.stdout.write(`${list}\n`);
    return 0;
  }
  const command = await findCommand(name);
  if (!command) throw new UsageError(UsageText.unknownCommand(name, commandList(await allCommands())));
  if (wantsHelp(rest)) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  const values = parseCommandArgs(rest, command.options);
  const { loadConfig } = await import('./config/app-config.js');
  const config = loadConfig(process.env, { logLevel: process.env.LOG_LEVEL ?? 'warn' });
  const schema = { entities: (await import('./entities.js')).ENTITIES, migrations: (await import('./migrations.js')).MIGRATIONS };
  let result: unknown;
  if (!command.modules) {
    const noServices = () => {
      throw new Error(`${command.name} declares no modules`);
    };
    result = await command.run({ config, schema, get: noServices }, values);
  } else {
    const { startServices } = await import('./cli/command-services.js');
    const services = await startServices(config, schema, command.modules);
    try {
      result = await command.run(services, values);
    } finally {
      await services.close();
    }
  }
  if (result instanceof CommandOutcome) {
    process.stdout.write(`${JSON.stringify(result.output)}\n`);
    if (result.complaint) process.stderr.write(`error: ${result.complaint}\n`);
    return result.exitCode;
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return 0;
}

/** Usage errors exit 2; domain errors, bad configuration and everything else print their message and exit 1. */
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
