import type { AnyCommand, OptionSpec } from './command';

export const INVOCATION = 'npm run -s cli --';

function flag(name: string, option: OptionSpec): string {
  return option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? 'VALUE'}`;
}

/** `account:show --account ID [--verbose] [--sender S]...` */
export function usageLine(command: AnyCommand): string {
  const parts = Object.entries(command.options).map(([name, option]) => {
    const text = flag(name, option);
    const shown = option.required ? text : `[${text}]`;
    return option.multiple ? `${shown}...` : shown;
  });
  return [command.name, ...parts].join(' ');
}

/** What `<command> --help` prints: what it does, its usage, every flag and an example. */
export function commandHelp(command: AnyCommand): string {
  const flags = Object.entries(command.options).map(([name, option]) => [
    flag(name, option),
    `${option.help}${option.maxLength !== undefined ? ` (at most ${option.maxLength} characters)` : ''}${option.required ? ' (required)' : ''}${option.multiple ? ' (repeatable)' : ''}`,
  ]);
  flags.push(['--help', 'this text']);
  const width = Math.max(...flags.map(([f]) => f.length));
  const lines = [
    `${command.name}: ${command.summary}`,
    '',
    `usage: ${INVOCATION} ${usageLine(command)}`,
    ...(command.description ? ['', command.description] : []),
    '',
    'options:',
    ...flags.map(([f, text]) => `  ${f.padEnd(width)}  ${text}`),
    '',
    command.examples.length > 1 ? 'examples:' : 'example:',
    ...command.examples.map((e) => `  ${INVOCATION} ${command.name}${e ? ` ${e}` : ''}`),
    '',
    'Prints one JSON object on stdout; on failure one `error: …` line on stderr, exit 2 when the command line is wrong, 1 when the command could not be done (not found, refused, a dependency out of reach).',
  ];
  return lines.join('\n');
}

/** The command list (`--help`, or after an unknown command). */
export function commandList(commands: readonly AnyCommand[]): string {
  const width = Math.min(36, Math.max(...commands.map((c) => c.name.length)));
  return [
    `usage: ${INVOCATION} <command> [flags]`,
    `       ${INVOCATION} <command> --help   (its flags and an example)`,
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}
