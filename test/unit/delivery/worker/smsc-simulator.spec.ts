/** The SMSC simulator seen from a bare `smpp` client, for what the carrier's tests do not reach. */
import { connect, ESME_RINVBNDSTS, ESME_ROK, PDU } from 'smpp';
import type { Session } from 'smpp';
import { SmscSimulator } from '../../../../src/smsc-sim/smsc-simulator';
import { PASSWORD, SYSTEM_ID, waitFor } from './smpp-harness';

function request(session: Session, command: string, fields: Record<string, unknown> = {}): Promise<PDU> {
  return new Promise((resolve, reject) => {
    if (!session.send(new PDU(command, fields), resolve)) reject(new Error('not writable'));
  });
}

async function client(port: number, bind = true): Promise<{ session: Session; delivered: PDU[] }> {
  const session = connect({ host: '127.0.0.1', port });
  const delivered: PDU[] = [];
  session.on('error', () => undefined);
  session.on('deliver_sm', (pdu: PDU) => {
    delivered.push(pdu);
    session.send(pdu.response());
  });
  await new Promise<void>((resolve) => session.on('connect', () => resolve()));
  if (bind) {
    const resp = await request(session, 'bind_transceiver', { system_id: SYSTEM_ID, password: PASSWORD });
    expect(resp.command_status).toBe(ESME_ROK);
  }
  return { session, delivered };
}

describe(SmscSimulator.name, () => {
  let simulator: SmscSimulator;
  let port: number;
  const sessions: Session[] = [];

  beforeEach(async () => {
    simulator = new SmscSimulator({ systemId: SYSTEM_ID, password: PASSWORD, receiptDelayMs: 30, deliverRetryMs: 30 });
    port = await simulator.start();
  });

  afterEach(async () => {
    for (const session of sessions.splice(0)) session.destroy();
    await simulator.stop();
  });

  async function open(bind = true): Promise<{ session: Session; delivered: PDU[] }> {
    const c = await client(port, bind);
    sessions.push(c.session);
    return c;
  }

  it('refuses submit_sm on a session that has not bound', async () => {
    const { session } = await open(false);
    const resp = await request(session, 'submit_sm', { destination_addr: '61412345678', short_message: Buffer.from('hi') });
    expect(resp.command_status).toBe(ESME_RINVBNDSTS);
    expect(simulator.submits).toHaveLength(0);
  });

  it('sends the receipt to another bound session of the account when the submitting one has gone', async () => {
    const a = await open();
    const b = await open();
    const resp = await request(a.session, 'submit_sm', { destination_addr: '61412345678', short_message: Buffer.from('hi'), registered_delivery: 1 });
    a.session.destroy();
    await waitFor('the receipt on the other session', () => b.delivered.length === 1);
    expect(b.delivered[0]).toMatchObject({ esm_class: 0x04, receipted_message_id: resp.message_id, source_addr: '61412345678' });
  });

  it('tells onAccepted of each accepted submit_sm before answering it, and of no refused one', async () => {
    const { session } = await open();
    const seen: Array<{ to: string; id: string | null; answered: boolean }> = [];
    let answered = false;
    simulator.onAccepted = (r) => seen.push({ to: r.destinationAddr, id: r.smscId, answered });
    const ok = await request(session, 'submit_sm', { destination_addr: '61412345678', short_message: Buffer.from('hi') });
    answered = true;
    simulator.faults.queueRefusals(1, 0x58);
    const refused = await request(session, 'submit_sm', { destination_addr: '61412345679', short_message: Buffer.from('hi') });
    expect(refused.command_status).toBe(0x58);
    expect(seen).toEqual([{ to: '61412345678', id: ok.message_id, answered: false }]);
  });

  it('sends no receipt when registered_delivery does not ask for one', async () => {
    const a = await open();
    await request(a.session, 'submit_sm', { destination_addr: '61412345678', short_message: Buffer.from('hi'), registered_delivery: 0 });
    await request(a.session, 'submit_sm', { destination_addr: '61412345679', short_message: Buffer.from('hi'), registered_delivery: 1 });
    await waitFor('one receipt', () => a.delivered.length === 1);
    expect(a.delivered[0].source_addr).toBe('61412345679');
  });

  it('keeps receipts while held and sends them when released', async () => {
    const a = await open();
    simulator.holdReceipts(true);
    // Receipt before resp: the receipt falls due while the submit is handled, so by the time the
    // submit_sm_resp reaches us a receipt sent on this session would already have arrived before it.
    simulator.setReceiptBeforeResp(true);
    await request(a.session, 'submit_sm', { destination_addr: '61412345678', short_message: Buffer.from('hi'), registered_delivery: 1 });
    expect(a.delivered).toHaveLength(0);
    simulator.holdReceipts(false);
    await waitFor('the released receipt', () => a.delivered.length === 1);
  });

  it('answers enquire_link and unbind', async () => {
    const a = await open();
    expect((await request(a.session, 'enquire_link')).command_status).toBe(ESME_ROK);
    expect((await request(a.session, 'unbind')).command_status).toBe(ESME_ROK);
    expect(simulator.counters.enquireLinks).toBe(1);
  });

  it('forgets records and counters on reset', async () => {
    const a = await open();
    await request(a.session, 'submit_sm', { destination_addr: '61412345678', short_message: Buffer.from('hi') });
    simulator.reset();
    expect(simulator.submits).toHaveLength(0);
    expect(simulator.counters.submits).toBe(0);
  });
});
