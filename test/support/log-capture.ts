import { Writable } from 'node:stream';

/** Collects an app's log lines (raw and parsed) for tests that assert on what was logged. */
export class LogCapture {
  readonly raw: string[] = [];
  readonly stream = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      this.raw.push(chunk.toString());
      done();
    },
  });

  get lines(): Array<Record<string, any>> {
    return this.raw.map((line) => JSON.parse(line) as Record<string, any>);
  }

  withRequestId(reqId: string): Array<Record<string, any>> {
    return this.lines.filter((line) => line.reqId === reqId);
  }
}
