import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '../../../src');

/**
 * Timers that belong to one object's lifetime rather than to a role: they keep a live thing alive (held
 * in-flight slots, an SMPP session, a dispatcher's lease, a webhook deliverer's leases) and stop with it. Everything else that repeats
 * is periodic work, declared per role (src/periodic-work.module.ts) and run by the PeriodicRunner.
 */
// A worker's carriers reload their own settings and publish their own state for as long as they live.
const LIFETIME_TIMERS = [
  'common/concurrency/inflight-limiter.ts',
  'smpp/session.ts',
  'delivery/worker/dispatcher-lease.ts',
  'webhooks/webhook-leases.ts',
  'delivery/worker/carriers.service.ts',
  // The database pool's watchdog: in every service process, API-only ones too, for as long as the pool lives.
  'database/connection-watchdog.ts',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Files (relative to src/) that start a repeating timer by hand. */
export function handWrittenLoops(files: Array<{ path: string; text: string }>): string[] {
  return files.filter((f) => /\bsetInterval\s*\(/.test(f.text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''))).map((f) => f.path);
}

describe('periodic work', () => {
  it('is never a hand-written setInterval outside the timers of a live object', () => {
    const files = sourceFiles(SRC)
      .filter((path) => !path.includes(`${join(SRC, 'smsc-sim')}`))
      .map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
    expect(handWrittenLoops(files).filter((path) => !LIFETIME_TIMERS.includes(path))).toEqual([]);
  });

  it('finds a loop when one is written', () => {
    expect(handWrittenLoops([{ path: 'x.ts', text: 'this.timer = setInterval(() => this.purge(), 1000);' }])).toEqual(['x.ts']);
    expect(handWrittenLoops([{ path: 'y.ts', text: '// no setInterval(() => here)' }])).toEqual([]);
  });
});
