import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { redactUrl } from './redact-url';

/** Paths never written to a log: credentials travel in the Authorization header and the session cookie. */
const REDACT = ['req.headers.authorization', 'headers.authorization', 'authorization', 'req.headers.cookie', 'cookie', 'password', 'api_password', 'signing_secret'];

interface LoggableRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request line, with secret path segments (set-password links) redacted. */
function requestSerializer(req: LoggableRequest) {
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

export function createRootLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: 'sms-api' }, serializers: { req: requestSerializer } }, destination);
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
