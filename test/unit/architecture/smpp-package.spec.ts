import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../..');

/**
 * The SMPP wire is our own (src/smpp). The `smpp` package stays only as a devDependency: tests use it
 * as an independent peer (its encoder to check ours byte for byte, its client and server to talk to
 * ours). Nothing in src/ may import it, and no code may write into its sessions' state.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'generated-client') return [];
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const withoutComments = (text: string): string => text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
const IMPORTS_PACKAGE = /\bfrom\s+'smpp'|require\(\s*'smpp'\s*\)|import\(\s*'smpp'\s*\)/;

/** Files that import the `smpp` package. */
export function importersOfPackage(files: Array<{ path: string; text: string }>): string[] {
  return files.filter((f) => IMPORTS_PACKAGE.test(withoutComments(f.text))).map((f) => f.path);
}

/**
 * Assignments to a property of a package session in files that import the package: to the session's
 * own fields (sequence, _callbacks, socket, paused…) through any name, or to any property of a value
 * typed or named as a Session, including through a cast or an index.
 */
export function assignmentsToPackageSessions(files: Array<{ path: string; text: string }>): string[] {
  const sessionField = /\.\s*(sequence|_callbacks|socket|paused|_busy|_command_length|options|server)\s*(\[[^\]]*\])?\s*(=(?!=)|\+\+|--|\+=|-=)/;
  const sessionValue = /(session|Session\))\s*(\.\s*[\w$]+|\[[^\]]+\])+\s*(=(?!=)|\+\+|--|\+=|-=)/i;
  const anyWrite = /Object\.(assign|defineProperty|defineProperties)\s*\(\s*[^,]*session/i;
  return importersOfPackage(files).filter((path) => {
    const text = withoutComments(files.find((f) => f.path === path)?.text ?? '');
    return sessionField.test(text) || sessionValue.test(text) || anyWrite.test(text) || /_callbacks/.test(text);
  });
}

describe('the smpp package', () => {
  // This file writes such code on purpose, as data for the detector's own test.
  const files = ['src', 'test', 'bench']
    .flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .filter((path) => path !== __filename)
    .map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

  it('is imported by no code in src/ (the wire is src/smpp)', () => {
    expect(importersOfPackage(files).filter((path) => path.startsWith('src/'))).toEqual([]);
  });

  it('is only a devDependency', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.dependencies.smpp).toBeUndefined();
    expect(manifest.devDependencies.smpp).toBeDefined();
  });

  it('has no property of its session objects assigned by any code', () => {
    expect(assignmentsToPackageSessions(files)).toEqual([]);
  });

  it('finds such an assignment when one is written', () => {
    const pkg = "import { connect } from 'smpp';\n";
    const written = [
      'session.sequence = 5;',
      'peer.sequence = seq;',
      'session._callbacks[seq] = answered;',
      'delete s._callbacks[3];',
      'sessions[0].sequence = 1;',
      'session.socket = other;',
      '(peer as Session).paused = true;',
      'this.session.sequence++;',
      'Object.assign(session, { sequence: 1 });',
    ];
    for (const line of written) expect(assignmentsToPackageSessions([{ path: 'x.ts', text: pkg + line }])).toEqual(['x.ts']);
    expect(
      assignmentsToPackageSessions([{ path: 'y.ts', text: `${pkg}if (session.sequence === 5) session.send(pdu);\npdu.sequence_number = 4;\nconst sessions: Session[] = [];` }]),
    ).toEqual([]);
    expect(assignmentsToPackageSessions([{ path: 'z.ts', text: 'session.sequence = 5; // our own Session, not the package' }])).toEqual([]);
  });
});
