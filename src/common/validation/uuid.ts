const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its canonical text form (any case): anything else names no row, so it is never looked up. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
