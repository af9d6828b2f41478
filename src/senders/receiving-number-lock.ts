/**
 * A number that receives replies (a `dedicated` or `shared` sender; inbound routing reads those) is
 * taken on an account under this transaction-scoped advisory lock, keyed on the stored number: an
 * operator's add and the inventory's sale of one number wait for each other, so each sees what the
 * other committed (two accounts cannot both end up with the same dedicated number). Not a partial
 * unique index: the rule spans two tables (senders, dedicated_numbers) and two sender types, and an index
 * could not be created on a database that already holds such a clash.
 */
export const RECEIVING_NUMBER_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('receiving-number:' || $1::text, 0))`;

/** Sender types whose number receives replies (inbound routing) and so must not be split between accounts. */
export const RECEIVING_TYPES = ['dedicated', 'shared'] as const;
