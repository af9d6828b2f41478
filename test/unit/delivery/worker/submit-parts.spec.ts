import { encodeGsm7Unpacked } from '../../../../src/common/sms';
import { sourceAddressing } from '../../../../src/smpp/addressing';
import { concatenationUdh, encodeParts } from '../../../../src/delivery/worker/carriers/smpp/submit-parts';
import type { OutboundMessage } from '../../../../src/delivery/worker/carriers/carrier';

const base: OutboundMessage = { messageId: 'm1', from: 'MyBrand', to: '61412345678', text: 'Hi', encoding: 'gsm7' };

describe(encodeParts.name, () => {
  it('sends a short GSM-7 message as one part: data_coding 0, no UDH, unpacked septets, receipt requested', () => {
    const [part, ...rest] = encodeParts({ ...base, text: 'Sale: €5 {today}' }, 7);
    expect(rest).toHaveLength(0);
    expect(part.partNumber).toBe(1);
    expect(part.totalParts).toBe(1);
    expect(part.params).toMatchObject({ data_coding: 0, esm_class: 0, registered_delivery: 1, dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: '61412345678' });
    expect(part.params.short_message).toEqual(encodeGsm7Unpacked('Sale: €5 {today}'));
  });

  it('prefixes every part of a long message with the same 8-bit reference UDH and sets UDHI', () => {
    const parts = encodeParts({ ...base, text: 'x'.repeat(153 * 2 + 1) }, 0x1ab);
    expect(parts.map((p) => p.params.esm_class)).toEqual([0x40, 0x40, 0x40]);
    expect(parts.map((p) => [...p.params.short_message.subarray(0, 6)])).toEqual([
      [5, 0, 3, 0xab, 3, 1],
      [5, 0, 3, 0xab, 3, 2],
      [5, 0, 3, 0xab, 3, 3],
    ]);
    expect(parts.map((p) => p.params.short_message.length - 6)).toEqual([153, 153, 1]);
  });

  it('encodes UCS-2 as UTF-16BE with data_coding 8', () => {
    const [part] = encodeParts({ ...base, text: 'Hé😀', encoding: 'ucs2' }, 1);
    expect(part.params.data_coding).toBe(8);
    expect([...part.params.short_message]).toEqual([0x00, 0x48, 0x00, 0xe9, 0xd8, 0x3d, 0xde, 0x00]);
  });

  it('throws when text marked gsm7 has a character outside GSM-7', () => {
    expect(() => encodeParts({ ...base, text: 'emoji 😀' }, 1)).toThrow(RangeError);
  });
});

describe(sourceAddressing.name, () => {
  it('sends digit-only senders as international numbers and others as alphanumeric', () => {
    expect(sourceAddressing('61412345678')).toEqual({ ton: 1, npi: 1 });
    expect(sourceAddressing('MyBrand')).toEqual({ ton: 5, npi: 0 });
    expect(sourceAddressing('Shop24')).toEqual({ ton: 5, npi: 0 });
  });
});

describe(concatenationUdh.name, () => {
  it('keeps only the low 8 bits of the reference', () => {
    expect([...concatenationUdh(256 + 9, 2, 1)]).toEqual([5, 0, 3, 9, 2, 1]);
  });
});
