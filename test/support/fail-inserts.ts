import { DataSource } from 'typeorm';

/** A real failure inside the transaction: an insert into `table` for this account raises. */
export async function failInsertsFor(ds: DataSource, table: string, accountId: number): Promise<() => Promise<void>> {
  const name = `fail_${table}_${accountId}`;
  await ds.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
  await ds.query(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW WHEN (NEW.account_id = ${accountId}) EXECUTE FUNCTION ${name}()`);
  return async () => {
    await ds.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
    await ds.query(`DROP FUNCTION IF EXISTS ${name}()`);
  };
}
