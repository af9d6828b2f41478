import { PDU } from 'smpp';
import {
  BIND_TRANSCEIVER,
  BIND_TRANSMITTER,
  DELIVER_SM,
  describeStatus,
  ENQUIRE_LINK,
  ENQUIRE_LINK_RESP,
  GENERIC_NACK,
  STATUS,
  UNBIND,
  UNBIND_RESP,
} from '../../../src/smpp/commands';
import { encodeHeaderOnly } from '../../../src/smpp/pdu';
import { bindRespSystemId, decodeBind, encodeBind, encodeBindResp } from '../../../src/smpp/session-pdus';
import { encodeMoDeliverSm } from '../../../src/smpp/smsc-pdus';

/** The `smpp` package's bytes for the same PDU: an independent encoder to compare ours with. */
function wire(command: string, sequence: number, options: Record<string, unknown> = {}): Buffer {
  const pdu = new PDU(command, options);
  pdu.sequence_number = sequence;
  return pdu.toBuffer();
}

describe('session PDUs', () => {
  it('encodes bind_transceiver byte for byte as the package does, and reads it back', () => {
    const fields = { systemId: 'esme1', password: 'secret12', systemType: 'VMA', interfaceVersion: 0x34 };
    const bytes = encodeBind(BIND_TRANSCEIVER, 9, fields);
    expect(bytes).toEqual(wire('bind_transceiver', 9, { system_id: 'esme1', password: 'secret12', system_type: 'VMA', interface_version: 0x34 }));
    expect(decodeBind(bytes)).toEqual(fields);
    expect(decodeBind(wire('bind_transmitter', 1, { system_id: 'a', password: 'b' }))).toEqual({ systemId: 'a', password: 'b', systemType: '', interfaceVersion: 0x50 });
  });

  it('throws RangeError on a bind whose strings run past the PDU', () => {
    const bytes = encodeBind(BIND_TRANSMITTER, 1, { systemId: 'esme1', password: 'pw', systemType: '', interfaceVersion: 0x34 });
    expect(() => decodeBind(bytes.subarray(0, 20))).toThrow(RangeError);
  });

  it('encodes bind resps as the package does: the system_id when accepted, the header alone when refused', () => {
    expect(encodeBindResp(BIND_TRANSCEIVER, 3, 0, 'SMSCSIM')).toEqual(wire('bind_transceiver_resp', 3, { system_id: 'SMSCSIM' }));
    expect(bindRespSystemId(encodeBindResp(BIND_TRANSCEIVER, 3, 0, 'SMSCSIM'))).toBe('SMSCSIM');
    const refused = encodeBindResp(BIND_TRANSCEIVER, 4, STATUS.ESME_RBINDFAIL, 'SMSCSIM');
    expect(refused).toEqual(wire('bind_transceiver_resp', 4, { command_status: STATUS.ESME_RBINDFAIL }));
    expect(bindRespSystemId(refused)).toBe('');
  });

  it('encodes enquire_link, unbind, their resps and generic_nack as their header alone, as the package does', () => {
    expect(encodeHeaderOnly(ENQUIRE_LINK, 0, 5)).toEqual(wire('enquire_link', 5));
    expect(encodeHeaderOnly(ENQUIRE_LINK_RESP, 0, 5)).toEqual(wire('enquire_link_resp', 5));
    expect(encodeHeaderOnly(UNBIND, 0, 6)).toEqual(wire('unbind', 6));
    expect(encodeHeaderOnly(UNBIND_RESP, 0, 6)).toEqual(wire('unbind_resp', 6));
    expect(encodeHeaderOnly(GENERIC_NACK, STATUS.ESME_RINVCMDID, 7)).toEqual(wire('generic_nack', 7, { command_status: STATUS.ESME_RINVCMDID }));
  });

  it.each([
    ['in short_message (GSM-7)', 0, Buffer.from('Hello back'), null],
    ['in message_payload (UCS-2)', 8, Buffer.alloc(0), Buffer.from('00480069', 'hex')],
  ])('encodes a mobile-originated deliver_sm %s as the package does', (_name, dataCoding, shortMessage, messagePayload) => {
    const mo = {
      sourceAddrTon: 1,
      sourceAddrNpi: 1,
      sourceAddr: '61412345678',
      destAddrTon: 1,
      destAddrNpi: 1,
      destinationAddr: '61400000001',
      dataCoding,
      shortMessage,
      messagePayload,
    };
    const bytes = encodeMoDeliverSm(12, mo);
    expect(bytes.readUInt32BE(4)).toBe(DELIVER_SM);
    expect(bytes).toEqual(
      wire('deliver_sm', 12, {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: '61412345678',
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: '61400000001',
        esm_class: 0,
        data_coding: dataCoding,
        short_message: shortMessage,
        ...(messagePayload ? { message_payload: messagePayload } : {}),
      }),
    );
  });

  it('names the statuses SMPP defines', () => {
    expect(describeStatus(STATUS.ESME_RINVCMDID)).toBe('ESME_RINVCMDID (0x00000003)');
    expect(describeStatus(0x4242)).toBe('status 0x00004242');
  });
});
