import { PDU } from 'smpp';
import { encodeGsm7Unpacked, GSM7_BASIC_CHARS, GSM7_EXTENSION_CHARS } from '../../../src/common/sms';
import { parseShortMessageBody, splitUserData } from '../../../src/smpp/short-message-reader';
import { decodeGsm7Unpacked, decodeSmsBytes, decodeUcs2, encodeUcs2 } from '../../../src/smpp/sms-bytes';

describe(decodeGsm7Unpacked.name, () => {
  it('reads back every GSM-7 character the encoder writes', () => {
    const all = [...GSM7_BASIC_CHARS, ...GSM7_EXTENSION_CHARS].join('');
    expect(decodeGsm7Unpacked(encodeGsm7Unpacked(all))).toBe(all);
  });

  it('reads an escape before a septet with no extension character as the basic character', () => {
    expect(decodeGsm7Unpacked(Buffer.from([0x1b, 0x41]))).toBe('A');
  });

  it('reads octets above 0x7F as a question mark', () => {
    expect(decodeGsm7Unpacked(Buffer.from([0x41, 0x80]))).toBe('A?');
  });

  it('reads a text of septets that are Latin-1 as it is (the receipt fast path), and any other septet by the table', () => {
    const receipt = 'id:7f3a9c sub:001 dlvrd:001 submit date:2611221530 stat:DELIVRD err:000 text:Hi';
    expect(decodeGsm7Unpacked(encodeGsm7Unpacked(receipt))).toBe(receipt);
    // Septets whose Latin-1 reading differs: 0x00 '@', 0x02 '$', 0x11 '_', 0x24 '¤', 0x40 '¡'.
    expect(decodeGsm7Unpacked(Buffer.from([0x61, 0x00, 0x02, 0x11, 0x24, 0x40]))).toBe('a@$_¤¡');
    // Every basic character alone between letters (the fast path whenever it reads the same in Latin-1).
    for (const ch of GSM7_BASIC_CHARS) expect(decodeGsm7Unpacked(encodeGsm7Unpacked(`a${ch}b`))).toBe(`a${ch}b`);
  });
});

describe(decodeUcs2.name, () => {
  it('round-trips text with surrogate pairs through UTF-16BE', () => {
    expect(decodeUcs2(encodeUcs2('Olá 😀 你好'))).toBe('Olá 😀 你好');
  });
});

describe(decodeSmsBytes.name, () => {
  it('decodes by data_coding: 0 GSM-7, 8 UCS-2, 3 Latin-1', () => {
    expect(decodeSmsBytes(0, Buffer.from([0x00, 0x1b, 0x65]))).toBe('@€');
    expect(decodeSmsBytes(8, Buffer.from([0x00, 0x41]))).toBe('A');
    expect(decodeSmsBytes(3, Buffer.from([0xe9]))).toBe('é');
  });
});

describe(parseShortMessageBody.name, () => {
  it('reads the raw fields of a submit_sm the smpp package encoded', () => {
    const udhAndText = Buffer.from([5, 0, 3, 9, 2, 1, 0x48, 0x69]);
    const pdu = new PDU('submit_sm', {
      source_addr: 'MyBrand',
      destination_addr: '61412345678',
      esm_class: 0x40,
      registered_delivery: 1,
      data_coding: 0,
      schedule_delivery_time: '',
      short_message: udhAndText,
      message_payload: Buffer.from('xy'),
    });
    pdu.sequence_number = 5;
    const body = pdu.toBuffer().subarray(4);
    const fields = parseShortMessageBody(body);
    expect(fields).toEqual({
      sourceAddr: 'MyBrand',
      destinationAddr: '61412345678',
      esmClass: 0x40,
      dataCoding: 0,
      registeredDelivery: 1,
      shortMessage: udhAndText,
      messagePayload: Buffer.from('xy'),
      receiptedMessageId: null,
      messageState: null,
    });
    expect(splitUserData(fields.esmClass, fields.shortMessage)).toEqual({ udh: udhAndText.subarray(0, 6), payload: Buffer.from([0x48, 0x69]) });
  });

  it('reads the receipt TLVs of a deliver_sm the smpp package encoded, as the package decodes them', () => {
    const pdu = new PDU('deliver_sm', {
      source_addr: '61412345678',
      destination_addr: 'MyBrand',
      esm_class: 0x04,
      short_message: Buffer.from('id:abc stat:DELIVRD'),
      receipted_message_id: '7f3a9c',
      message_state: 2,
    });
    pdu.sequence_number = 9;
    const wire = pdu.toBuffer();
    const fields = parseShortMessageBody(wire.subarray(4));
    const decoded = new PDU(wire);
    expect(fields).toMatchObject({ sourceAddr: '61412345678', destinationAddr: 'MyBrand', esmClass: 0x04, receiptedMessageId: '7f3a9c', messageState: 2 });
    expect([fields.receiptedMessageId, fields.messageState, fields.sourceAddr]).toEqual([decoded.receipted_message_id, decoded.message_state, decoded.source_addr]);
  });

  it('throws RangeError on a truncated body', () => {
    const body = new PDU('submit_sm', { destination_addr: '614', short_message: Buffer.from('hello') }).toBuffer().subarray(4);
    expect(() => parseShortMessageBody(body.subarray(0, body.length - 3))).toThrow(RangeError);
  });
});
