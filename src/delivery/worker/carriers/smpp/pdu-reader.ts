/**
 * The carrier's own reading of the PDUs an SMSC sends, for the two that arrive once per part:
 * submit_sm_resp and deliver_sm. The `smpp` package reads each PDU with two socket.read() calls, copies
 * it, decodes every field through its per-type filters (short_message through its GSM table, which we
 * then read again from the raw octets) and builds a response object per deliver_sm_resp; at campaign
 * rates that was the largest node-side cost left on the SMPP path. Everything else (bind responses,
 * enquire_link, unbind, generic_nack to a non-submit) still goes through the package's decoder.
 */

export const SUBMIT_SM = 0x00000004;
export const SUBMIT_SM_RESP = 0x80000004;
export const DELIVER_SM = 0x00000005;
const DELIVER_SM_RESP = 0x80000005;
/** A response's command_id has this bit set. */
export const RESPONSE_BIT = 0x80000000;
/** command_length, command_id, command_status, sequence_number. */
export const HEADER_LENGTH = 16;
/** The highest sequence number; the next after it is 1 (SMPP 3.4 §5.1.4: 0x00000001 to 0x7FFFFFFF). */
export const MAX_SEQUENCE = 0x7fffffff;
/** The package's limit (PDU.maxLength), kept so a peer sees the same behaviour. */
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
 * the header alone, as the package sends it.
 */
export function encodeDeliverSmResp(sequence: number, status: number): Buffer {
  const length = status === 0 ? HEADER_LENGTH + 1 : HEADER_LENGTH;
  const pdu = Buffer.allocUnsafe(length);
  pdu.writeUInt32BE(length, 0);
  pdu.writeUInt32BE(DELIVER_SM_RESP, 4);
  pdu.writeUInt32BE(status >>> 0, 8);
  pdu.writeUInt32BE(sequence, 12);
  if (status === 0) pdu[HEADER_LENGTH] = 0;
  return pdu;
}
