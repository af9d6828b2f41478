import { readFileSync } from 'node:fs';
import { CarrierSettingsError, checkPassword } from '../../carriers/carrier-settings';
import { UsageError } from '../cli-args';

/** A carrier setting the operator got wrong is a usage error (exit 2), whichever layer noticed it. */
export async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof CarrierSettingsError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * The bind password, never from a flag's value (a shell's history and `ps` would show it): from stdin
 * (`--password-stdin`, e.g. piped from a secrets manager; one trailing newline dropped) or from an
 * environment variable named by `--password-env`. Undefined when neither is given.
 */
export function readPassword(values: { 'password-stdin': boolean; 'password-env'?: string }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (values['password-stdin'] && values['password-env'] !== undefined) throw new UsageError('give the password by one of --password-stdin or --password-env');
  if (values['password-stdin']) {
    let text: string;
    try {
      text = readFileSync(0, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read the password from stdin: ${(err as Error).message}`);
    }
    return asPassword(text.replace(/\r?\n$/, ''));
  }
  const name = values['password-env'];
  if (name === undefined) return undefined;
  const value = env[name];
  if (value === undefined || value === '') throw new UsageError(`--password-env ${name}: that environment variable is not set`);
  return asPassword(value);
}

function asPassword(text: string): string {
  try {
    return checkPassword(text);
  } catch (err) {
    throw new UsageError((err as CarrierSettingsError).message);
  }
}

export const PASSWORD_OPTIONS = {
  'password-stdin': { type: 'boolean', help: 'read the bind password from stdin (it never appears in a command line)' },
  'password-env': { type: 'string', value: 'VAR', help: 'read the bind password from this environment variable' },
} as const;
