/**
 * The PDUs that run a session rather than carry messages (SMPP 3.4 §4.1, §4.2, §4.3, §4.11): bind_* and
 * their resps. enquire_link, unbind and generic_nack are their header alone (encodeHeaderOnly).
 */
import { RESPONSE_BIT } from './commands';
import { HEADER_LENGTH, textUntilNul, writeHeader } from './pdu';

/** SMPP 3.4. */
export const INTERFACE_VERSION_34 = 0x34;

export interface BindFields {
  systemId: string;
  password: string;
  systemType: string;
  interfaceVersion: number;
}

/** bind_transmitter, bind_receiver or bind_transceiver (same body), with addr_ton, addr_npi and address_range empty. */
export function encodeBind(commandId: number, sequence: number, bind: BindFields): Buffer {
  const strings = [bind.systemId, bind.password, bind.systemType].map((s) => Buffer.from(s, 'ascii'));
  const length = HEADER_LENGTH + strings.reduce((sum, s) => sum + s.length + 1, 0) + 3 + 1;
  const pdu = Buffer.alloc(length);
  writeHeader(pdu, commandId, 0, sequence);
  let at = HEADER_LENGTH;
  for (const s of strings) at += s.copy(pdu, at) + 1; // Buffer.alloc leaves the NUL
  pdu[at] = bind.interfaceVersion;
  return pdu; // addr_ton, addr_npi 0 and address_range "" are the zeros already there
}

/**
 * The fields of a bind_* PDU. Throws RangeError when a C-octet string runs past the PDU (a garbled bind),
 * so the session answers it with generic_nack.
 */
export function decodeBind(pdu: Buffer): BindFields {
  let at = HEADER_LENGTH;
  const cstring = (): string => {
    const end = pdu.indexOf(0, at);
    if (end < 0) throw new RangeError('bind PDU truncated in a C-octet string');
    const value = pdu.toString('latin1', at, end);
    at = end + 1;
    return value;
  };
  const systemId = cstring();
  const password = cstring();
  const systemType = cstring();
  if (at >= pdu.length) throw new RangeError('bind PDU truncated before interface_version');
  return { systemId, password, systemType, interfaceVersion: pdu[at] };
}

/** A bind's resp: with the SMSC's system_id when it is accepted, the header alone when refused. */
export function encodeBindResp(bindCommandId: number, sequence: number, status: number, systemId: string): Buffer {
  const id = status === 0 ? Buffer.from(systemId, 'ascii') : null;
  const pdu = Buffer.alloc(HEADER_LENGTH + (id ? id.length + 1 : 0));
  writeHeader(pdu, (bindCommandId | RESPONSE_BIT) >>> 0, status, sequence);
  id?.copy(pdu, HEADER_LENGTH);
  return pdu;
}

/** The system_id of a bind resp ('' when refused: the header alone). */
export function bindRespSystemId(pdu: Buffer): string {
  return textUntilNul(pdu, HEADER_LENGTH, pdu.length);
}
