import { PDU } from 'smpp';
import { classifyDeliver } from '../../../src/delivery/worker/carriers/smpp/deliver';
import { encodeReceiptDeliverSm, encodeSubmitSmResp, ReceiptDeliverSm } from '../../../src/smpp/smsc-pdus';
import { receiptDeliverSm } from '../../../src/smsc-sim/sim-pdus';
import type { SubmitRecord } from '../../../src/smsc-sim/sim-types';

/** A submit the simulator accepted, as it records it. */
function record(overrides: Partial<SubmitRecord> = {}): SubmitRecord {
  return {
    smscId: 'ab1200000001',
    commandStatus: 0,
    sourceAddr: 'MyBrand',
    sourceAddrTon: 5,
    destinationAddr: '61412345678',
    dataCoding: 0,
    esmClass: 0,
    udh: null,
    shortMessage: Buffer.from('Your code is 1234'),
    text: 'Your code is 1234',
    registeredDelivery: 1,
    receivedAt: new Date('2026-11-26T10:00:00Z'),
    sessionId: 1,
    ...overrides,
  };
}

/** The package's own encoding of the same receipt: the simulator's bytes must match it. */
function libraryReceipt(sequence: number, r: ReceiptDeliverSm): Buffer {
  const pdu = new PDU('deliver_sm', {
    source_addr_ton: r.sourceAddrTon,
    source_addr_npi: r.sourceAddrNpi,
    source_addr: r.sourceAddr,
    dest_addr_ton: r.destAddrTon,
    dest_addr_npi: r.destAddrNpi,
    destination_addr: r.destinationAddr,
    esm_class: 0x04,
    data_coding: 0,
    short_message: r.shortMessage,
    receipted_message_id: r.receiptedMessageId,
    message_state: r.messageState,
  });
  pdu.sequence_number = sequence;
  return pdu.toBuffer();
}

describe('SMSC simulator codec', () => {
  it('writes a submit_sm_resp exactly as the smpp package does', () => {
    const request = new PDU('submit_sm', { source_addr: 'A', destination_addr: '61412345678', short_message: 'x' });
    request.sequence_number = 0x7fffffff;
    expect(encodeSubmitSmResp(0x7fffffff, 'ab1200000001')).toEqual(request.response({ message_id: 'ab1200000001' }).toBuffer());
  });

  it.each([
    ['delivered, to an alphanumeric sender', record(), true],
    ['undeliverable, to a numeric sender', record({ sourceAddr: '61400000001', sourceAddrTon: 1 }), false],
    ['a text with characters outside GSM-7 (sent as ?)', record({ text: 'Kia ora 👋 — ready' }), true],
  ])('writes the receipt deliver_sm (%s) exactly as the smpp package does, and the carrier reads it back', (_name, submitted, delivered) => {
    const receipt = receiptDeliverSm(submitted, 'ab1200000001', delivered);
    const bytes = encodeReceiptDeliverSm(42, receipt);
    expect(bytes).toEqual(libraryReceipt(42, receipt));
    const read = classifyDeliver(bytes.subarray(4), 0, new Date('2026-11-26T10:00:05Z'));
    expect(read).toMatchObject({
      kind: 'receipt',
      receipt: { carrierId: 0, smscId: 'ab1200000001', state: delivered ? 'delivered' : 'failed', stat: delivered ? 'DELIVRD' : 'UNDELIV' },
    });
  });
});
