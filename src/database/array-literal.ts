/**
 * PostgreSQL's array literal for a flat array of strings, numbers and booleans (and null), exactly as the
 * `pg` driver writes it (every element quoted, `\` and `"` escaped), or null for any other array (dates,
 * buffers, nested arrays), which is left to the driver. The driver escapes every element with two
 * regular-expression replaces and grows the literal one concatenation at a time: for the set-based
 * statements that pass 10000-element arrays (a send's messages, a group commit's outcomes and receipts)
 * that was the largest part of preparing the query, about 19 ms for 10000 message bodies against 3 here.
 */
export function arrayLiteral(values: readonly unknown[]): string | null {
  const elements = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      elements[i] = 'NULL';
      continue;
    }
    const kind = typeof value;
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean' && kind !== 'bigint') return null;
    const text = kind === 'string' ? (value as string) : String(value);
    elements[i] = text.indexOf('\\') < 0 && text.indexOf('"') < 0 ? `"${text}"` : `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `{${elements.join(',')}}`;
}
