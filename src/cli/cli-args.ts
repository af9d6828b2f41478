import { parseArgs } from 'node:util';
import { UsageText } from '../common/errors/error-catalogue';
import type { OptionSpecs, Values } from './command';

export class UsageError extends Error {}

/** `-5`, `-0.25`: a value, not a flag, when it follows a flag that takes one. */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/** `--help` or `-h` anywhere before a `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * node:util's parseArgs refuses `--credits -5` as ambiguous (the value looks like a flag); a negative
 * number after a flag that takes a value is that flag's value, so it is joined as `--credits=-5`.
 */
function joinNegativeValues(argv: readonly string[], options: OptionSpecs): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i].startsWith('--') ? options[argv[i].slice(2)] : undefined;
    if (flag?.type === 'string' && i + 1 < argv.length && NEGATIVE_NUMBER.test(argv[i + 1])) {
      out.push(`${argv[i]}=${argv[i + 1]}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

/** Parses a command's flags strictly: unknown flags, missing values and missing required flags are usage errors. */
export function parseCommandArgs<O extends OptionSpecs>(argv: readonly string[], options: O): Values<O> {
  const specs = Object.fromEntries(Object.entries(options).map(([name, o]) => [name, { type: o.type, multiple: o.multiple === true }]));
  let parsed: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    const result = parseArgs({ args: joinNegativeValues(argv, options), options: specs, strict: true, allowPositionals: false, tokens: true });
    parsed = result.values;
    // parseArgs keeps the last value of a flag given twice; `--account 1 … --account 2` is a mistake to point out.
    const seen = new Set<string>();
    for (const token of result.tokens) {
      if (token.kind !== 'option' || options[token.name]?.type !== 'string' || options[token.name].multiple) continue;
      if (seen.has(token.name)) throw new UsageError(UsageText.flagRepeated(token.name));
      seen.add(token.name);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message);
  }
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(options)) {
    if (option.type === 'boolean') values[name] = parsed[name] === true;
    else if (option.required) values[name] = requireString(parsed, name);
    else values[name] = parsed[name];
    if (option.maxLength !== undefined) checkLength(values[name], name, option.maxLength);
  }
  return values as Values<O>;
}

/** A flag's value (each one, for a repeatable flag) no longer than the field it fills may be, as the page and API count it. */
function checkLength(value: unknown, name: string, max: number): void {
  for (const one of Array.isArray(value) ? value : [value]) {
    if (typeof one === 'string' && one.trim().length > max) throw new UsageError(UsageText.flagTooLong(name, max));
  }
}

export function requireString(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(UsageText.flagRequired(name));
  return value.trim();
}

/** A flag's value as a positive id (`--account 12`). */
export function positiveId(text: string, flag: string): number {
  if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < 1) throw new UsageError(UsageText.flagPositiveInteger(flag));
  return Number(text);
}

export function requireId(values: Record<string, unknown>, name: string): number {
  return positiveId(requireString(values, name), name);
}
