/** The package session's PDU bodies as read from its socket (until the simulator runs on src/smpp's own session). */
import type { PDU, Session } from 'smpp';

/** Returns a function giving the body (from command_id on) of the PDU the session is emitting now. */
export function tapPduBodies(session: Session): () => Buffer | null {
  const socket = session.socket;
  const read = socket.read.bind(socket);
  let last: Buffer | null = null;
  socket.read = (size?: number): unknown => {
    const chunk: unknown = read(size);
    if (Buffer.isBuffer(chunk)) last = chunk;
    return chunk;
  };
  return () => last;
}

/** The body if it belongs to `pdu` (same command id and sequence number), else null. */
export function bodyOf(pdu: PDU, body: Buffer | null): Buffer | null {
  if (!body || body.length < 12) return null;
  return body.readUInt32BE(0) === pdu.command_id && body.readUInt32BE(8) === pdu.sequence_number ? body : null;
}
