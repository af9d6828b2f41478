/** The `pg` driver's own parameter conversion (an internal module): the tests hold arrayLiteral to it. */
declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): unknown;
}
