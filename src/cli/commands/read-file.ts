import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { UsageText } from '../../common/errors/error-catalogue';
import { UsageError } from '../cli-args';

/**
 * The text of a --file, or a usage error naming it. The file must be UTF-8 text without NUL, as an upload
 * on the pages must: other bytes would be stored as U+FFFD (Excel's plain "CSV" on Windows: `Zoë` became
 * `Zo�`) and a NUL would reach PostgreSQL, which cannot store it.
 */
export async function readFileFlag(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new UsageError(UsageText.cannotReadFile(file, (err as Error).message));
  }
  if (!isUtf8(bytes) || bytes.includes(0)) throw new UsageError(UsageText.cannotReadFile(file, UsageText.fileNotText));
  return bytes.toString('utf8');
}
