/** Type of number and numbering plan of an address (SMPP 3.4 §5.2.5, §5.2.6), as this service sets them. */

export const TON_INTERNATIONAL = 0x01;
export const TON_ALPHANUMERIC = 0x05;
export const NPI_UNKNOWN = 0x00;
export const NPI_ISDN = 0x01;

/** Senders made only of digits are numbers (TON international, NPI ISDN); anything else is alphanumeric. */
export function sourceAddressing(from: string): { ton: number; npi: number } {
  return /^\d+$/.test(from) ? { ton: TON_INTERNATIONAL, npi: NPI_ISDN } : { ton: TON_ALPHANUMERIC, npi: NPI_UNKNOWN };
}

/** A carrier's source TON/NPI for each kind of sender (carriers table: alpha_ton/npi, numeric_ton/npi). */
export interface SourceAddressing {
  alphanumeric: { ton: number; npi: number };
  numeric: { ton: number; npi: number };
}

/** Sets a submit_sm's source TON/NPI from the carrier's addressing, by the kind of its sender. */
export function applySourceAddressing(params: { source_addr: string; source_addr_ton: number; source_addr_npi: number }, addressing: SourceAddressing): void {
  const chosen = /^\d+$/.test(params.source_addr) ? addressing.numeric : addressing.alphanumeric;
  params.source_addr_ton = chosen.ton;
  params.source_addr_npi = chosen.npi;
}
