import { spawn } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

const CLI = path.resolve(__dirname, '../../dist/src/cli.js');

/** Runs the built operator CLI as an operator would, against the run's database. */
export function runCli(...args: string[]): Promise<CliResult> {
  return runCliWithEnv({}, ...args);
}

/** The same, with extra environment variables (e.g. a configured payment provider). */
export function runCliWithEnv(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runCliWithInput(undefined, env, ...args);
}

/** The same, with `input` written to its stdin (then closed); undefined leaves stdin open and unused. */
export function runCliWithInput(input: string | undefined, env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    if (input !== undefined) child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = stdout.trim() ? JSON.parse(stdout) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
  });
}
