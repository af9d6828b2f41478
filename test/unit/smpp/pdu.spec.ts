import { PDU } from 'smpp';
import { encodeDeliverSmResp, PduFramer, readHeader, submitSmRespMessageId } from '../../../src/smpp/pdu';

function wire(command: string, sequence: number, options: Record<string, unknown> = {}): Buffer {
  const pdu = new PDU(command, options);
  pdu.sequence_number = sequence;
  return pdu.toBuffer();
}

/** Every PDU the framer hands out, copied (they are views valid only during the call). */
function frame(framer: PduFramer, chunks: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  for (const chunk of chunks) framer.push(chunk, (pdu) => out.push(Buffer.from(pdu)));
  return out;
}

describe(PduFramer.name, () => {
  const resps = [1, 2, 3].map((n) => wire('submit_sm_resp', n, { message_id: `id-${n}` }));

  it('hands out every PDU of a chunk that holds several', () => {
    expect(frame(new PduFramer(), [Buffer.concat(resps)])).toEqual(resps);
  });

  it('joins a PDU split across chunks, at any byte (inside the length too)', () => {
    const all = Buffer.concat(resps);
    for (let cut = 1; cut < all.length; cut++) {
      expect(frame(new PduFramer(), [all.subarray(0, cut), all.subarray(cut)])).toEqual(resps);
    }
    expect(
      frame(
        new PduFramer(),
        [...all].map((byte) => Buffer.from([byte])),
      ),
    ).toEqual(resps);
  });

  it('throws on a command_length no PDU can have (the stream cannot be resynchronised)', () => {
    const tooShort = Buffer.from([0, 0, 0, 8, 0, 0, 0, 0]);
    expect(() => frame(new PduFramer(), [tooShort])).toThrow(RangeError);
    const tooLong = Buffer.from([0, 1, 0, 0]);
    expect(() => frame(new PduFramer(), [tooLong])).toThrow(/out of range/);
  });
});

describe('submit_sm_resp and deliver_sm_resp', () => {
  it('reads a submit_sm_resp header and message_id as the package decodes them', () => {
    const bytes = wire('submit_sm_resp', 77, { message_id: '0a1b2c3d' });
    const decoded = new PDU(bytes);
    expect(readHeader(bytes)).toEqual({ commandId: decoded.command_id, status: decoded.command_status, sequence: 77 });
    expect(submitSmRespMessageId(bytes)).toBe(decoded.message_id);
  });

  it("reads '' as the message_id of an error resp without a body", () => {
    const bytes = wire('submit_sm_resp', 3, { command_status: 0x58 });
    expect(bytes.length).toBe(16);
    expect(submitSmRespMessageId(bytes)).toBe('');
    expect(readHeader(bytes).status).toBe(0x58);
  });

  it('encodes deliver_sm_resp byte for byte as the package does', () => {
    for (const [sequence, status] of [
      [1, 0],
      [0x7fffffff, 0x64],
    ]) {
      expect(encodeDeliverSmResp(sequence, status)).toEqual(wire('deliver_sm_resp', sequence, { command_status: status }));
    }
  });
});
