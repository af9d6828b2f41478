/**
 * The SMPP 3.4 PDU frame (§3.2): a 16-octet header (command_length, command_id, command_status,
 * sequence_number) then the body. The framer cuts a socket's byte stream into whole PDUs; the readers
 * here take what the hot path needs straight from the octets, without building objects per PDU.
 */
import { DELIVER_SM_RESP } from './commands';

/** command_length, command_id, command_status, sequence_number. */
export const HEADER_LENGTH = 16;
/** The highest sequence number; the next after it is 1 (SMPP 3.4 §5.1.4: 0x00000001 to 0x7FFFFFFF). */
export const MAX_SEQUENCE = 0x7fffffff;
/** The sequence number after `sequence`: 1 to 0x7FFFFFFF, then 1 again (0 is never a request's). */
export function sequenceAfter(sequence: number): number {
  return sequence >= MAX_SEQUENCE ? 1 : sequence + 1;
}

/** The longest PDU we accept (as the widely used `smpp` package does), so a garbled length ends the session. */
export const MAX_PDU_LENGTH = 16384;

/**
 * Cuts a byte stream into whole PDUs. Chunks arrive as the socket gives them: a PDU may span chunks
 * and a chunk may hold many PDUs (a window's worth of resps arrive together).
 */
export class PduFramer {
  private pending: Buffer | null = null;

  /**
   * Adds a chunk and calls `each` with every PDU it completes (the whole PDU, header included; a view
   * into the chunk, valid during the call). Throws RangeError on a command_length no PDU can have: the
   * stream cannot be resynchronised, so the session must end.
   */
  push(chunk: Buffer, each: (pdu: Buffer) => void): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let offset = 0;
    while (data.length - offset >= 4) {
      const length = data.readUInt32BE(offset);
      if (length < HEADER_LENGTH || length > MAX_PDU_LENGTH) throw new RangeError(`PDU command_length ${length} is out of range (${HEADER_LENGTH} to ${MAX_PDU_LENGTH})`);
      if (data.length - offset < length) break;
      each(data.subarray(offset, offset + length));
      offset += length;
    }
    // Copied: the rest must not keep the whole chunk alive, nor see it reused.
    if (offset < data.length) this.pending = Buffer.from(data.subarray(offset));
  }
}

export interface PduHeader {
  commandId: number;
  status: number;
  sequence: number;
}

export function readHeader(pdu: Buffer): PduHeader {
  return { commandId: pdu.readUInt32BE(4), status: pdu.readUInt32BE(8), sequence: pdu.readUInt32BE(12) };
}

/** A PDU's 16-octet header (SMPP 3.4 §3.2) at the start of `pdu`. */
export function writeHeader(pdu: Buffer, commandId: number, status: number, sequence: number): void {
  pdu.writeUInt32BE(pdu.length, 0);
  pdu.writeUInt32BE(commandId >>> 0, 4);
  pdu.writeUInt32BE(status >>> 0, 8);
  pdu.writeUInt32BE(sequence, 12);
}

/**
 * A PDU that is its header alone: enquire_link, unbind and their resps, generic_nack, and any resp with a
 * non-zero command_status (SMPP 3.4 §3.3: an error resp carries no body).
 */
export function encodeHeaderOnly(commandId: number, status: number, sequence: number): Buffer {
  const pdu = Buffer.allocUnsafe(HEADER_LENGTH);
  writeHeader(pdu, commandId, status, sequence);
  return pdu;
}

/** The message_id of a submit_sm_resp (a C-octet string after the header; '' when absent, as on an error). */
export function submitSmRespMessageId(pdu: Buffer): string {
  return textUntilNul(pdu, HEADER_LENGTH, pdu.length);
}

/** The octets from `start` up to the first NUL before `end` (or up to `end` when a peer left the NUL out), as text. */
export function textUntilNul(buffer: Buffer, start: number, end: number): string {
  if (start >= end) return '';
  const nul = buffer.indexOf(0, start);
  return buffer.toString('latin1', start, nul >= 0 && nul < end ? nul : end);
}

/**
 * A deliver_sm_resp: the header and an empty message_id (SMPP 3.4 §4.6.2), 17 octets; an error resp is
 * the header alone.
 */
export function encodeDeliverSmResp(sequence: number, status: number): Buffer {
  if (status !== 0) return encodeHeaderOnly(DELIVER_SM_RESP, status, sequence);
  const pdu = Buffer.allocUnsafe(HEADER_LENGTH + 1);
  writeHeader(pdu, DELIVER_SM_RESP, 0, sequence);
  pdu[HEADER_LENGTH] = 0;
  return pdu;
}
