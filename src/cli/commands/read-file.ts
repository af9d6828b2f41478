import { readFile } from 'node:fs/promises';
import { UsageText } from '../../common/errors/error-catalogue';
import { UsageError } from '../cli-args';

/** The text of a --file, or a usage error naming it. */
export async function readFileFlag(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(UsageText.cannotReadFile(file, (err as Error).message));
  }
}
