import type { LoggerService } from '@nestjs/common';
import { redactSecrets } from '../common/logging/redact';

/**
 * What the CLI reports itself, so the log line would only say it twice: Nest's ExceptionHandler (the error is
 * rethrown and printed as `error: …`), and RedisService's complaint at start, meant for a long-running
 * process: a command that uses Redis and cannot reach it fails with `Redis at HOST:PORT is not reachable`,
 * one whose work is the database's alone (account:release-brake) runs undisturbed.
 */
export const REPORTED_BY_THE_CLI: readonly string[] = ['ExceptionHandler', 'RedisService'];

/**
 * Nest's logger in the CLI. A command speaks through its JSON on stdout and its `error:` line; of the
 * services' log only errors show, one line each on stderr, as warnings (the command went on: e.g.
 * `warning: email not sent (to: …)`). Never Nest's multi-line, coloured console format.
 */
export class CliLogger implements LoggerService {
  constructor(private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {}

  // Below error: the service's chatter (a mail written to the log without SMTP_URL, a retry), not for an operator's terminal.
  log(..._entry: unknown[]): void {}
  warn(..._entry: unknown[]): void {}
  debug(..._entry: unknown[]): void {}
  verbose(..._entry: unknown[]): void {}

  error(message: unknown, ...rest: unknown[]): void {
    this.line(message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.line(message, rest);
  }

  private line(message: unknown, rest: unknown[]): void {
    // Nest passes the context (the class's name) last.
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && REPORTED_BY_THE_CLI.includes(context)) return;
    this.write(`warning: ${redactSecrets(oneLine(message)).replace(/\s*\n\s*/g, ' ')}`);
  }
}

function oneLine(message: unknown): string {
  if (message instanceof Error) return message.message;
  if (message === null || typeof message !== 'object') return String(message);
  const { msg, ...fields } = message as Record<string, unknown>;
  const shown = Object.entries(fields).map(([key, value]) => `${key}: ${value instanceof Error ? value.message : typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${typeof msg === 'string' ? msg : ''}${shown.length > 0 ? ` (${shown.join(', ')})` : ''}`.trim();
}
