/**
 * The carrier reads submit_sm_resp and deliver_sm itself (pdu-reader) and leaves every other PDU to the
 * `smpp` package: this peer, written with the package's server side, sends the ones the simulator never
 * does and checks what comes back on the wire.
 */
import type { AddressInfo } from 'node:net';
import { createServer, errors, ESME_ROK, PDU } from 'smpp';
import type { Server, Session } from 'smpp';
import { SmppCarrier } from '../../../../src/delivery/worker/carriers/smpp/smpp-carrier';
import { message, waitFor } from './smpp-harness';

describe('SmppCarrier against a hand-driven SMSC', () => {
  let server: Server;
  let carrier: SmppCarrier;
  let peer: Session | null;
  const received: PDU[] = [];

  beforeEach(async () => {
    received.length = 0;
    peer = null;
    server = createServer((session) => {
      peer = session;
      session.on('pdu', (pdu: PDU) => received.push(pdu));
      session.on('bind_transceiver', (pdu: PDU) => session.send(pdu.response()));
      // Every submit is answered with generic_nack: the SMSC could not read it.
      session.on('submit_sm', (pdu: PDU) => session.send(new PDU('generic_nack', { sequence_number: pdu.sequence_number, command_status: errors.ESME_RINVCMDLEN })));
      session.on('unbind', (pdu: PDU) => {
        session.send(pdu.response());
        session.close();
      });
      session.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    carrier = new SmppCarrier({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      systemId: 'esme1',
      password: 'secret12',
      tls: false,
      binds: 1,
      window: 10,
      tpsPerBind: 0,
      enquireLinkMs: 60_000,
      reconnectBaseMs: 20,
      reconnectMaxMs: 200,
      submitTimeoutMs: 2_000,
      throttleBackoffMs: 10,
      throttleBackoffMaxMs: 50,
    });
    await carrier.start();
  });

  afterEach(async () => {
    await carrier.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails a part the SMSC answers with generic_nack, naming the status', async () => {
    const [result] = await carrier.submit([message()]);
    expect(result.parts[0].smscId).toBeNull();
    expect(result.parts[0].error).toMatch(/ESME_RINVCMDLEN/);
  });

  it("answers the SMSC's enquire_link with enquire_link_resp of the same sequence number", async () => {
    (peer as Session).send(new PDU('enquire_link', { sequence_number: 4242 }));
    await waitFor('enquire_link_resp', () => received.some((p) => p.command === 'enquire_link_resp'));
    expect(received.find((p) => p.command === 'enquire_link_resp')).toMatchObject({ sequence_number: 4242, command_status: ESME_ROK });
  });

  it("answers an unknown command with generic_nack, and the SMSC's unbind with unbind_resp (then the bind reconnects)", async () => {
    const session = peer as Session;
    session.socket.write(Buffer.from([0, 0, 0, 16, 0x00, 0x00, 0x00, 0x99, 0, 0, 0, 0, 0, 0, 0, 7]));
    await waitFor('generic_nack', () => received.some((p) => p.command === 'generic_nack'));
    expect(received.find((p) => p.command === 'generic_nack')).toMatchObject({ sequence_number: 7 });
    session.send(new PDU('unbind', { sequence_number: 11 }));
    await waitFor('unbind_resp', () => received.some((p) => p.command === 'unbind_resp'));
    await waitFor('a new bind', () => peer !== session && carrier.state().bindsUp === 1);
  });

  it('drops a session that sends a PDU with an impossible command_length (after answering the PDUs before it), and binds again', async () => {
    const session = peer as Session;
    const enquire = new PDU('enquire_link', { sequence_number: 31 });
    session.socket.write(Buffer.concat([enquire.toBuffer(), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0])]));
    await waitFor('a new bind', () => peer !== session && carrier.state().bindsUp === 1);
    expect(received.find((p) => p.command === 'enquire_link_resp')).toMatchObject({ sequence_number: 31 });
    expect(carrier.state().reconnects).toBe(1);
  });
});
