import { types } from 'pg';

/**
 * bigint (ids, credit amounts in hundredths, counts) arrives from pg as a string by default. Ours stay
 * far below 2^53, so they are read as numbers; a value that would lose precision fails loudly instead.
 */
types.setTypeParser(types.builtins.INT8, (text: string) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`bigint ${text} exceeds the safe integer range`);
  return value;
});
