import { PDU } from 'smpp';
import { encodeGsm7Unpacked } from '../../../src/common/sms';
import type { OutboundMessage } from '../../../src/delivery/worker/carriers/carrier';
import { encodeSubmitSm } from '../../../src/smpp/short-message';
import { encodeParts } from '../../../src/delivery/worker/carriers/smpp/submit-parts';
import type { SubmitSmParams } from '../../../src/smpp/short-message';

/** What the `smpp` package writes for the same submit_sm: the codec must match it byte for byte. */
const libraryBytes = (sequence: number, params: SubmitSmParams) => {
  const pdu = new PDU('submit_sm', { ...params });
  pdu.sequence_number = sequence;
  return pdu.toBuffer();
};

describe(encodeSubmitSm.name, () => {
  const cases: Array<[string, SubmitSmParams[]]> = [
    [
      'a GSM-7 text from an alphanumeric sender',
      encodeParts({ from: 'MyBrand', to: '61412345678', text: 'Your code is 1234 [€]', encoding: 'gsm7' } satisfies Omit<OutboundMessage, 'messageId'> as OutboundMessage, 7).map(
        (p) => p.params,
      ),
    ],
    [
      'a UCS-2 text from a number',
      encodeParts({ from: '61400000001', to: '61412345678', text: 'Kia ora 👋 — ready', encoding: 'ucs2' } satisfies Omit<OutboundMessage, 'messageId'> as OutboundMessage, 9).map(
        (p) => p.params,
      ),
    ],
    [
      'each part of a long message (UDH, esm_class UDHI)',
      encodeParts({ from: 'Shop', to: '61499999999', text: 'x'.repeat(400), encoding: 'gsm7' } satisfies Omit<OutboundMessage, 'messageId'> as OutboundMessage, 200).map(
        (p) => p.params,
      ),
    ],
    [
      'an empty text',
      encodeParts({ from: 'A', to: '61412345678', text: '', encoding: 'gsm7' } satisfies Omit<OutboundMessage, 'messageId'> as OutboundMessage, 1).map((p) => p.params),
    ],
  ];

  it.each(cases)('writes %s exactly as the smpp package does', (_name, parts) => {
    expect(parts.length).toBeGreaterThan(0);
    for (const [i, params] of parts.entries()) {
      const sequence = 0x7ffffff0 + i;
      expect(encodeSubmitSm(sequence, params).equals(libraryBytes(sequence, params))).toBe(true);
    }
  });

  it('declares its own length and sequence in the header', () => {
    const params = encodeParts({ from: 'Brand', to: '61412345678', text: 'hi', encoding: 'gsm7' } satisfies Omit<OutboundMessage, 'messageId'> as OutboundMessage, 1)[0].params;
    const pdu = encodeSubmitSm(42, params);
    expect([pdu.readUInt32BE(0), pdu.readUInt32BE(4), pdu.readUInt32BE(8), pdu.readUInt32BE(12)]).toEqual([pdu.length, 4, 0, 42]);
    expect(pdu.subarray(pdu.length - 2)).toEqual(encodeGsm7Unpacked('hi'));
  });

  it('refuses a short_message longer than sm_length can say', () => {
    const params = {
      ...encodeParts({ from: 'Brand', to: '61412345678', text: 'hi', encoding: 'gsm7' } satisfies Omit<OutboundMessage, 'messageId'> as OutboundMessage, 1)[0].params,
      short_message: Buffer.alloc(255),
    };
    expect(() => encodeSubmitSm(1, params)).toThrow(RangeError);
  });
});
