export const AU_STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;
export type AuState = (typeof AU_STATES)[number];

/** Where the number's service is used: a street address in Australia. */
export interface ServiceAddress {
  street: string;
  /** '' when the address did not name one apart from the street. */
  suburb: string;
  state: AuState;
  postcode: string;
}

export type AddressProblem = 'missing' | 'type' | 'too_long' | 'street' | 'state' | 'postcode';
export type AddressCheck = { ok: true; address: ServiceAddress } | { ok: false; problem: AddressProblem };

export const MAX_ADDRESS_LENGTH = 200;

const STATE = new RegExp(`^(${AU_STATES.join('|')})$`, 'i');

/**
 * A service address, given as one line (`Level 2, 10 Smith St, Sydney NSW 2000`, optionally ending in
 * `Australia`) or as fields (`{street, suburb?, state, postcode}`). The line ends with the state or
 * territory abbreviation and a 4-digit postcode; what comes before is the street (and, after its last
 * comma, the suburb). The street must say something (a letter or digit).
 */
export function checkServiceAddress(input: unknown): AddressCheck {
  if (input === undefined || input === null || input === '') return { ok: false, problem: 'missing' };
  if (typeof input === 'string') return checkLine(input);
  if (typeof input === 'object' && !Array.isArray(input)) return checkFields(input as Record<string, unknown>);
  return { ok: false, problem: 'type' };
}

function checkLine(input: string): AddressCheck {
  const line = collapse(input);
  if (line === '') return { ok: false, problem: 'missing' };
  if (line.length > MAX_ADDRESS_LENGTH) return { ok: false, problem: 'too_long' };
  const core = line.replace(/[\s,]+australia\.?$/i, '');
  if (!/(^|[\s,])[0-9]{4}$/.test(core)) return { ok: false, problem: 'postcode' };
  const tail = /(^|[\s,])([A-Za-z]+)[\s,]+([0-9]{4})$/.exec(core);
  if (!tail || !STATE.test(tail[2])) return { ok: false, problem: 'state' };
  const rest = core.slice(0, tail.index).replace(/[\s,]+$/, '');
  const comma = rest.lastIndexOf(',');
  const street = (comma < 0 ? rest : rest.slice(0, comma)).trim();
  const suburb = comma < 0 ? '' : rest.slice(comma + 1).trim();
  return finish({ street, suburb, state: tail[2], postcode: tail[3] });
}

function checkFields(fields: Record<string, unknown>): AddressCheck {
  const text = (name: string) => (typeof fields[name] === 'string' ? collapse(fields[name] as string) : fields[name] === undefined || fields[name] === null ? '' : null);
  const street = text('street');
  const suburb = text('suburb');
  const state = text('state');
  const postcode = text('postcode');
  if (street === null || suburb === null || state === null || postcode === null) return { ok: false, problem: 'type' };
  if (!STATE.test(state)) return { ok: false, problem: state === '' && street === '' && postcode === '' ? 'missing' : 'state' };
  if (!/^[0-9]{4}$/.test(postcode)) return { ok: false, problem: 'postcode' };
  return finish({ street, suburb, state, postcode });
}

function finish(parts: { street: string; suburb: string; state: string; postcode: string }): AddressCheck {
  if (!/[A-Za-z0-9]/.test(parts.street)) return { ok: false, problem: 'street' };
  const address: ServiceAddress = { street: parts.street, suburb: parts.suburb, state: parts.state.toUpperCase() as AuState, postcode: parts.postcode };
  if (formatServiceAddress(address).length > MAX_ADDRESS_LENGTH) return { ok: false, problem: 'too_long' };
  return { ok: true, address };
}

/** One line: `10 Smith St, Sydney NSW 2000`. */
export function formatServiceAddress(address: ServiceAddress): string {
  return `${address.street}${address.suburb ? `, ${address.suburb}` : ''} ${address.state} ${address.postcode}`;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
