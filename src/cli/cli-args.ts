import { parseArgs } from 'node:util';
import { UsageText } from '../common/errors/error-catalogue';

export class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** Parses a command's flags strictly: unknown flags and missing values are usage errors. */
export function parseCommandArgs<T extends OptionSpec>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function requireString(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(UsageText.flagRequired(name));
  return value.trim();
}

export function requireId(values: Record<string, unknown>, name: string): number {
  const text = requireString(values, name);
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw new UsageError(UsageText.flagPositiveInteger(name));
  return Number(text);
}
