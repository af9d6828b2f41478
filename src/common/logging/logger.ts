import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { currentLogContext } from './log-context';
import { redactSecrets } from './redact';

/** Paths never written to a log: credentials travel in the Authorization header, the session cookie (or, for the simple send interface, the query). */
const REDACT = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'password',
  '*.password',
  'api_password',
  '*.api_password',
  'signing_secret',
  '*.signing_secret',
  'req.headers.cookie',
  'headers.cookie',
  'cookie',
];

/**
 * The process's root logger. Lines written through it directly (Nest's Logger in services and workers)
 * carry the request id and account id of the work in progress (log-context.ts); a request's own logger
 * (Fastify's request.log, a child) is bound to them instead. Query-string credentials are cut from every
 * serialised line.
 */
export function createRootLogger(level: string, destination?: pino.DestinationStream): Logger {
  const root: Logger = pino(
    {
      level,
      redact: { paths: REDACT, censor: '[redacted]' },
      base: { service: 'sms-api' },
      mixin: (_line, _level, instance) => (instance === root ? contextFields() : {}),
      hooks: { streamWrite: redactSecrets },
    },
    destination,
  );
  return root;
}

function contextFields(): Record<string, unknown> {
  const context = currentLogContext();
  if (!context) return {};
  const fields: Record<string, unknown> = {};
  if (context.reqId !== undefined) fields.reqId = context.reqId;
  if (context.accountId !== undefined) fields.accountId = context.accountId;
  return fields;
}

/** Lets Nest's own Logger write structured JSON through the same pino instance. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]) {
    // Nest passes the context (class name) last; a preceding string is a stack trace.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message !== null && typeof message === 'object') {
      this.root[level]({ context, ...(message as object), ...(stack ? { stack } : {}) });
    } else {
      this.root[level]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }
}
