/**
 * Why a failed part failed, as pages and exports name it: the carrier's error code where its receipt
 * gave one (with its stat), else the carrier's final stat, else the refusal's own text. `p` is a
 * message_parts row.
 */
export const FAILURE_REASON = `CASE WHEN p.receipt_err IS NOT NULL AND p.receipt_err <> '000' THEN 'Carrier error ' || p.receipt_err || coalesce(' (' || p.receipt_stat || ')', '')
            WHEN p.receipt_stat IS NOT NULL THEN 'Carrier status ' || p.receipt_stat
            ELSE coalesce(nullif(p.error, ''), 'No reason given') END`;
