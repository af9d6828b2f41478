/**
 * Carrier identities (smallint in parts, receipts and inbound rows). Rows of the carriers table are 1 and
 * up (never reused); these two have no row.
 */
/** The SMPP_* environment shortcut: one carrier named `env`. */
export const ENV_CARRIER_ID = 0;
export const ENV_CARRIER_NAME = 'env';
/** The simulator that takes test accounts' messages (and live ones in development without an SMSC). */
export const SIMULATED_CARRIER_ID = -1;
export const SIMULATED_CARRIER_NAME = 'simulator';
