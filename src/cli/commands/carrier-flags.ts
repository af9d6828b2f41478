import { readFileSync } from 'node:fs';
import { CarrierSettingsError, checkPassword } from '../../carriers/carrier-settings';
import { CARRIER_KEY } from '../../config/app-config';
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
 * A secret never taken from a flag's value (a shell's history and `ps` would show it): from stdin (e.g.
 * piped from a secrets manager; one trailing newline dropped) or from an environment variable the
 * operator names. Undefined when neither is given. `what` names it in complaints, which never show it.
 */
function readSecret(flags: { stdin: string; env: string }, stdin: boolean, envName: string | undefined, what: string, env: NodeJS.ProcessEnv): string | undefined {
  if (stdin && envName !== undefined) throw new UsageError(`give ${what} by one of --${flags.stdin} or --${flags.env}`);
  if (stdin) {
    let text: string;
    try {
      text = readFileSync(0, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${what} from stdin: ${(err as Error).message}`);
    }
    return text.replace(/\r?\n$/, '');
  }
  if (envName === undefined) return undefined;
  const value = env[envName];
  if (value === undefined || value === '') throw new UsageError(`--${flags.env} ${envName}: that environment variable is not set`);
  return value;
}

/** The bind password (`--password-stdin` or `--password-env VAR`); undefined when neither is given. */
export function readPassword(values: { 'password-stdin': boolean; 'password-env'?: string }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const text = readSecret({ stdin: 'password-stdin', env: 'password-env' }, values['password-stdin'], values['password-env'], 'the password', env);
  return text === undefined ? undefined : asPassword(text);
}

/** carrier:rekey's old key (`--old-key-stdin` or `--old-key-env VAR`), in CARRIER_SECRET_KEY's form. */
export function readOldKey(values: { 'old-key-stdin': boolean; 'old-key-env'?: string }, env: NodeJS.ProcessEnv = process.env): string {
  const text = readSecret({ stdin: 'old-key-stdin', env: 'old-key-env' }, values['old-key-stdin'], values['old-key-env'], 'the old key', env);
  if (text === undefined) throw new UsageError('the old key is required: --old-key-stdin or --old-key-env VAR');
  const key = text.trim();
  if (!CARRIER_KEY.pattern.test(key)) throw new UsageError(`the old key ${CARRIER_KEY.message}`);
  return key;
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

export const OLD_KEY_OPTIONS = {
  'old-key-stdin': { type: 'boolean', help: 'read the old CARRIER_SECRET_KEY from stdin (it never appears in a command line)' },
  'old-key-env': { type: 'string', value: 'VAR', help: 'read the old CARRIER_SECRET_KEY from this environment variable' },
} as const;
