/**
 * What an operator may set on a carrier, checked before anything is stored (the table's checks say the
 * same, so a hand-written row cannot break a worker either). Pure: the CLI turns a complaint into a
 * usage error (exit 2). Only for a value the operator typed wrong: a carrier or route that does not exist,
 * or a name already taken, is a DomainError from the catalogue (exit 1, as everywhere else).
 */
export class CarrierSettingsError extends Error {}

export const CARRIER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const RESERVED_NAMES = ['env', 'simulator'];
/** A host name or an IPv4/IPv6 address, no scheme or port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^[0-9a-fA-F:]+$/;

export function checkCarrierName(name: string): string {
  if (!CARRIER_NAME.test(name)) throw new CarrierSettingsError('--name must be 1-32 lower-case letters, digits, - or _, starting with a letter or digit');
  if (RESERVED_NAMES.includes(name)) throw new CarrierSettingsError(`--name ${name} is reserved (env is the SMPP_* carrier, simulator the test accounts')`);
  return name;
}

export function checkHost(host: string): string {
  if (host.length > 253 || !HOST.test(host)) throw new CarrierSettingsError('--host must be a host name or an IP address (no scheme, no port)');
  return host;
}

/** SMPP 3.4 §5.2.1: system_id is at most 15 characters, password at most 8 (many SMSCs accept longer; we allow 64). */
function hasControl(text: string): boolean {
  return [...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
}

export function checkSystemId(systemId: string): string {
  if (systemId.length < 1 || systemId.length > 64 || hasControl(systemId)) throw new CarrierSettingsError('--system-id must be 1-64 printable characters');
  return systemId;
}

export function checkPassword(password: string): string {
  if (password.length < 1 || password.length > 64 || hasControl(password)) throw new CarrierSettingsError('the password must be 1-64 printable characters');
  return password;
}

/** A whole number flag within bounds. */
export function checkWhole(text: string, flag: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < min || Number(text) > max) throw new CarrierSettingsError(`--${flag} must be a whole number from ${min} to ${max}`);
  return Number(text);
}

export function checkBoolean(text: string, flag: string): boolean {
  if (text === 'true' || text === 'yes' || text === '1') return true;
  if (text === 'false' || text === 'no' || text === '0') return false;
  throw new CarrierSettingsError(`--${flag} must be true or false`);
}

/** `5/0` as TON 5, NPI 0 (TON 0-6, NPI 0-18). */
export function checkAddressing(text: string, flag: string): { ton: number; npi: number } {
  const match = /^(\d{1,2})\/(\d{1,2})$/.exec(text.trim());
  if (!match || Number(match[1]) > 6 || Number(match[2]) > 18) throw new CarrierSettingsError(`--${flag} must be TON/NPI, e.g. 5/0 (TON 0-6, NPI 0-18)`);
  return { ton: Number(match[1]), npi: Number(match[2]) };
}
