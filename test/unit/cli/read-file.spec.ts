import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../src/cli/cli-args';
import { readFileFlag } from '../../../src/cli/commands/read-file';

describe(readFileFlag.name, () => {
  let dir: string;
  const file = (name: string, bytes: Buffer) => {
    const at = path.join(dir, name);
    writeFileSync(at, bytes);
    return at;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'read-file-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads UTF-8 text, a byte order mark and all', async () => {
    const at = file('utf8.csv', Buffer.from('\ufeffnumber,first_name\n0412000001,Zoë\n', 'utf8'));
    await expect(readFileFlag(at)).resolves.toBe('\ufeffnumber,first_name\n0412000001,Zoë\n');
  });

  it.each([
    ['Windows-1252 (Excel plain CSV)', Buffer.from('number,first_name\n0412000001,Zo\xe9\n', 'latin1')],
    ['a NUL', Buffer.from('number,first_name\n0412000001,A\u0000B\n', 'utf8')],
    ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x6e])],
  ])('refuses a file that is not UTF-8 text: %s', async (_name, bytes) => {
    const at = file('bad.csv', bytes);
    const read = readFileFlag(at);
    await expect(read).rejects.toThrow(UsageError);
    await expect(readFileFlag(at)).rejects.toThrow(`cannot read --file ${at}: it is not UTF-8 text (save it as CSV UTF-8 and try again)`);
  });

  it('names a file it cannot open', async () => {
    await expect(readFileFlag(path.join(dir, 'missing.csv'))).rejects.toThrow(/^cannot read --file .*missing\.csv: ENOENT/);
  });
});
