/** A unique constraint refused a row (SQLSTATE 23505), whether thrown by the driver or wrapped by TypeORM. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.driverError?.code === '23505';
}
