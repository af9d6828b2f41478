import * as nodeModule from 'node:module';
import { parseCommandArgs, UsageError, wantsHelp } from './cli/cli-args';
import { CommandOutcome, EXIT } from './cli/command';
import { allCommands, findCommand } from './cli/command-table';
import { commandHelp, commandList } from './cli/help';
import { UsageText } from './common/errors/error-catalogue';
import type { Dependencies } from './cli/failure';

// Node 22.1+ keeps compiled code between runs (the CLI loads a thousand files on every call); absent on Node 20.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** The addresses the command connects to, once the configuration is read (to name one it cannot reach). */
let dependencies: Dependencies | undefined;

/** Operator commands: JSON on stdout; a clear message on stderr and a non-zero exit on failure (EXIT). */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const list = commandList(await allCommands());
    if (!name) {
      process.stderr.write(`${list}\n`);
      return EXIT.usage;
    }
    process.stdout.write(`${list}\n`);
    return EXIT.ok;
  }
  const command = await findCommand(name);
  if (!command) throw new UsageError(UsageText.unknownCommand(name, commandList(await allCommands())));
  if (wantsHelp(rest)) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return EXIT.ok;
  }
  const values = parseCommandArgs(rest, command.options);
  const { loadConfig } = await import('./config/app-config.js');
  const config = loadConfig(process.env, { logLevel: process.env.LOG_LEVEL ?? 'warn' });
  dependencies = config;
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
  return EXIT.ok;
}

/** `error: …` and the exit code, by the one rule of cli/failure.ts (usage errors 2, everything else 1). */
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (err: unknown) => {
    const { cliFailure } = await import('./cli/failure.js');
    const { line, exitCode } = cliFailure(err, dependencies);
    process.stderr.write(`error: ${line}\n`);
    process.exit(exitCode);
  },
);
