import type { DynamicModule, Type } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import type { SchemaLists } from '../database/typeorm-options';

/** One flag of a command, as its --help shows it. */
export interface OptionSpec {
  /** `string` takes a value (`--name Harbour`, `--name=Harbour`, `--credits -5`); `boolean` is a switch. */
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in usage and help (`ID`, `FILE`); string flags only. */
  readonly value?: string;
  /** The flag may be given more than once; its values come as a list. */
  readonly multiple?: boolean;
  /** Missing or blank is a usage error (`--name is required`). */
  readonly required?: boolean;
  /**
   * The most characters the value may have (trimmed), a usage error beyond it. Give the constant the page or
   * API that writes the same field enforces, so the CLI never stores what they would refuse. Help shows it.
   */
  readonly maxLength?: number;
  readonly help: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean' ? boolean : S['multiple'] extends true ? string[] : S['required'] extends true ? string : string | undefined;

/** What a command's handler receives: switches are true or false, required values are present and trimmed. */
export type Values<O extends OptionSpecs> = { -readonly [K in keyof O]: ValueOf<O[K]> };

/** The services a command asked for (by the Nest modules it named), and the validated configuration. */
export interface CommandServices {
  readonly config: AppConfig;
  /** The composition root's entity and migration lists. */
  readonly schema: SchemaLists;
  get<T>(type: Type<T> | (abstract new (...args: never[]) => T)): T;
}

export type ModuleImport = Type<unknown> | DynamicModule;

/**
 * An operator command: its name, what it does, its flags and an example (all shown by `<name> --help`),
 * the Nest modules whose services it uses, and the handler. The CLI starts only those modules (plus the
 * configuration, the database pool and the clock): no HTTP server, no queues, no timers of the service.
 */
export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** `<group>:<verb>`; the group names its file in command-table.ts. */
  readonly name: string;
  /** One line, in the command list. */
  readonly summary: string;
  /** More, in the command's own --help (optional). */
  readonly description?: string;
  readonly options: O;
  /** Argument lists (without the command name), shown as `npm run -s cli -- <name> <example>`. */
  readonly examples: readonly string[];
  /** Omitted: the command uses no service and no database pool is opened (db:migrate). */
  readonly modules?: readonly ModuleImport[];
  /** Returns the object printed as JSON on stdout (a CommandOutcome to choose the exit code). */
  run(services: CommandServices, values: Values<O>): Promise<unknown>;
}

export type AnyCommand = Command<OptionSpecs>;

/** Declares a command; the flags' types flow into the handler's values. */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): AnyCommand {
  return command as unknown as AnyCommand;
}

/**
 * The CLI's exit codes: one rule for every command, applied in one place (cli.ts, through cliFailure) and
 * documented in the README (Operator CLI).
 */
export const EXIT = {
  /** Done; a check found nothing wrong. */
  ok: 0,
  /**
   * Understood but not done, or done and found problems: what it names does not exist (an account, user, key,
   * carrier, route…), a conflict or another refusal by the service's rules, a check that found violations,
   * bad configuration, PostgreSQL or Redis out of reach.
   */
  failed: 1,
  /**
   * The command line is wrong (a UsageError): an unknown command or flag, a flag missing or repeated, a value
   * of the wrong form, range or length, a --file it cannot read. Nothing was done.
   */
  usage: 2,
} as const;

/** A result printed like any other, with the exit code it calls for (a check that found problems exits 1). */
export class CommandOutcome {
  constructor(
    readonly output: unknown,
    readonly exitCode: number,
    /** A line for stderr, saying why the exit code is not 0. */
    readonly complaint?: string,
  ) {}
}
