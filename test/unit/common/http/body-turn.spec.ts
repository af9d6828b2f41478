import { nextBulkTurn } from '../../../../src/common/concurrency/bulk-turns';
import { LARGE_BODY_CHARS, parseInTurn } from '../../../../src/common/http/body-turn';
import { turnCounter } from '../../../support/event-loop-turns';

function parsed(text: string, parse: (text: string) => unknown = JSON.parse): { result: Promise<{ err: Error | null; value?: unknown }>; answeredAtOnce: () => boolean } {
  let answered = false;
  const result = new Promise<{ err: Error | null; value?: unknown }>((resolve) =>
    parseInTurn(text, parse, (err, value) => {
      answered = true;
      resolve({ err, value });
    }),
  );
  const atOnce = answered;
  return { result, answeredAtOnce: () => atOnce };
}

const largeBody = (marker: string) => JSON.stringify({ marker, pad: 'x'.repeat(LARGE_BODY_CHARS) });

describe('parseInTurn', () => {
  it('parses a small body at once', async () => {
    const p = parsed('{"a":1}');
    expect(p.answeredAtOnce()).toBe(true);
    expect(await p.result).toEqual({ err: null, value: { a: 1 } });
  });

  it('parses a large body in a later turn of the event loop, after the bulk work that asked before it', async () => {
    const order: string[] = [];
    const slice = nextBulkTurn().then(() => order.push('slice asked first'));
    const p = parsed(largeBody('big'), (text) => {
      order.push('large body');
      return JSON.parse(text) as unknown;
    });
    expect(p.answeredAtOnce()).toBe(false);
    const { err, value } = await p.result;
    await slice;
    expect(err).toBeNull();
    expect((value as { marker: string }).marker).toBe('big');
    expect(order).toEqual(['slice asked first', 'large body']);
  });

  it('parses large bodies arriving together one per turn, in the order they came', async () => {
    const turns = turnCounter();
    const order: Array<{ name: string; turn: number }> = [];
    const bodies = ['first', 'second', 'third'].map((name) =>
      parsed(largeBody(name), (text) => {
        order.push({ name, turn: turns.now() });
        return JSON.parse(text) as unknown;
      }),
    );
    await Promise.all(bodies.map((b) => b.result));
    turns.stop();
    expect(order.map((o) => o.name)).toEqual(['first', 'second', 'third']);
    expect(new Set(order.map((o) => o.turn)).size).toBe(3);
  });

  it("hands the parser's error to done, for small and large bodies alike", async () => {
    const refuse = () => {
      throw new Error('Invalid JSON');
    };
    expect((await parsed('{', refuse).result).err?.message).toBe('Invalid JSON');
    expect((await parsed('x'.repeat(LARGE_BODY_CHARS), refuse).result).err?.message).toBe('Invalid JSON');
  });
});
