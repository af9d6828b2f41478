/** Type of number and numbering plan of an address (SMPP 3.4 §5.2.5, §5.2.6), as this service sets them. */

export const TON_INTERNATIONAL = 0x01;
export const TON_ALPHANUMERIC = 0x05;
export const NPI_UNKNOWN = 0x00;
export const NPI_ISDN = 0x01;

/** Senders made only of digits are numbers (TON international, NPI ISDN); anything else is alphanumeric. */
export function sourceAddressing(from: string): { ton: number; npi: number } {
  return /^\d+$/.test(from) ? { ton: TON_INTERNATIONAL, npi: NPI_ISDN } : { ton: TON_ALPHANUMERIC, npi: NPI_UNKNOWN };
}
