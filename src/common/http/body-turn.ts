import { nextBulkTurn } from '../concurrency/bulk-turns';

/** A request body at least this long (characters, or bytes) is parsed in its own bulk turn: about 2 ms of parsing. */
export const LARGE_BODY_CHARS = 256 * 1024;

/**
 * Parses a request body and hands the result (or the parser's error) to `done`: a small body at once, a
 * large one in its bulk turn (common/concurrency/bulk-turns.ts). A 10000-message batch takes about 20 ms
 * to parse; when five arrive together their parses take turns with the rest of the process's bulk work,
 * so a small request beside them waits for one parse at each of its steps, not five.
 */
export function parseInTurn<T, B extends string | Buffer = string>(body: B, parse: (body: B) => T, done: (err: Error | null, value?: T) => void): void {
  const answer = () => {
    let value: T;
    try {
      value = parse(body);
    } catch (err) {
      return done(err as Error);
    }
    done(null, value);
  };
  if (body.length < LARGE_BODY_CHARS) answer();
  else void nextBulkTurn().then(answer);
}
