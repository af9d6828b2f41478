import type { LoggerService } from '@nestjs/common';

/**
 * Takes the place of Nest's console logger in a test file (Logger.overrideLogger), keeping what the
 * subject logged so a test can assert on it and the run stays quiet.
 */
export class RecordingLogger implements LoggerService {
  readonly entries: Array<{ level: string; message: unknown; context?: string }> = [];

  log(message: unknown, context?: string): void {
    this.entries.push({ level: 'log', message, context });
  }

  warn(message: unknown, context?: string): void {
    this.entries.push({ level: 'warn', message, context });
  }

  error(message: unknown, context?: string): void {
    this.entries.push({ level: 'error', message, context });
  }

  /** Forgets what was logged so far (between tests). */
  clear(): void {
    this.entries.length = 0;
  }
}
