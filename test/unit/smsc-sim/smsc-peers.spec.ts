/** Several SMSC simulators side by side, each driven through its own HTTP control, seen from a bare `smpp` client. */
import { connect, PDU } from 'smpp';
import type { Session } from 'smpp';
import { STATUS } from '../../../src/smpp/commands';
import { SMSC_CREDENTIALS } from '../../support/delivery';
import { SmscPeer, startSmscPeers, stopSmscPeers } from '../../support/smsc-peers';
import { until } from '../../support/wait';

const UDH = (seq: number) => Buffer.from([0x05, 0x00, 0x03, 0x07, 0x02, seq]);

interface Client {
  session: Session;
  receipts: string[];
  closed: Promise<void>;
}

function request(session: Session, command: string, fields: Record<string, unknown> = {}): Promise<PDU> {
  return new Promise((resolve, reject) => {
    if (!session.send(new PDU(command, fields), resolve)) reject(new Error('not writable'));
  });
}

describe('SMSC simulators as fault-injecting peers', () => {
  let peers: SmscPeer[];
  const clients: Session[] = [];

  beforeAll(async () => {
    peers = await startSmscPeers(2, { receiptDelayMs: 20, messageIdPrefix: (i) => `p${i}-` });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy();
    for (const peer of peers) {
      await peer.control.clearFaults();
      await peer.control.reset();
    }
  });
  afterAll(() => stopSmscPeers(peers));

  async function open(peer: SmscPeer, bind = true): Promise<Client> {
    const session = connect({ host: '127.0.0.1', port: peer.port });
    clients.push(session);
    const receipts: string[] = [];
    session.on('error', () => undefined);
    session.on('deliver_sm', (pdu: PDU) => {
      receipts.push(String(pdu.source_addr));
      session.send(pdu.response());
    });
    const closed = new Promise<void>((resolve) => session.on('close', () => resolve()));
    await new Promise<void>((resolve) => session.on('connect', () => resolve()));
    if (bind) expect((await request(session, 'bind_transceiver', SMSC_CREDENTIALS_FIELDS)).command_status).toBe(STATUS.ESME_ROK);
    return { session, receipts, closed };
  }

  const SMSC_CREDENTIALS_FIELDS = { system_id: SMSC_CREDENTIALS.systemId, password: SMSC_CREDENTIALS.password };
  const submit = (c: Client, to: string, extra: Record<string, unknown> = {}) =>
    request(c.session, 'submit_sm', { destination_addr: to, short_message: Buffer.from('hi'), registered_delivery: 1, ...extra });

  it('runs each on its own ports with its own ids, counters and faults', async () => {
    expect(new Set(peers.flatMap((p) => [p.port, p.control.port])).size).toBe(4);
    const [a, b] = await Promise.all(peers.map((p) => open(p)));
    await peers[0].control.setSubmitError(STATUS.ESME_RSYSERR, 1);
    const [ra, rb] = await Promise.all([submit(a, '61400000001'), submit(b, '61400000001')]);
    expect([ra.command_status, rb.command_status]).toEqual([STATUS.ESME_RSYSERR, STATUS.ESME_ROK]);
    expect(String(rb.message_id)).toMatch(/^p1-/);
    const [sa, sb] = await Promise.all(peers.map((p) => p.control.stats()));
    expect([sa.accepted, sa.refused_by_status, sb.accepted, sb.refused_by_status]).toEqual([0, { '0x08': 1 }, 1, {}]);
  });

  it('answers a share of submits with each error status it is given', async () => {
    const c = await open(peers[0]);
    await peers[0].control.setSubmitError(STATUS.ESME_RTHROTTLED, 0.3);
    await peers[0].control.setSubmitError(STATUS.ESME_RMSGQFUL, 0.2);
    await peers[0].control.setSubmitError(STATUS.ESME_RSYSERR, 0.1);
    const faults = await peers[0].control.setSubmitError(STATUS.ESME_RINVDSTADR, 0.1);
    expect(faults.submitErrors).toHaveLength(4);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(c, `6140000${String(i).padStart(4, '0')}`)));
    const counts: Record<number, number> = {};
    for (const a of answers) counts[a.command_status] = (counts[a.command_status] ?? 0) + 1;
    expect(counts).toEqual({ [STATUS.ESME_ROK]: 6, [STATUS.ESME_RTHROTTLED]: 6, [STATUS.ESME_RMSGQFUL]: 4, [STATUS.ESME_RSYSERR]: 2, [STATUS.ESME_RINVDSTADR]: 2 });
    expect((await peers[0].control.stats()).counters).toMatchObject({ submits: 6, refused: 14, throttled: 6 });
  });

  it('answers the next submits with a given status', async () => {
    const c = await open(peers[0]);
    await peers[0].control.failNext(1, STATUS.ESME_RINVDSTADR);
    expect((await submit(c, '61400000001')).command_status).toBe(STATUS.ESME_RINVDSTADR);
    expect((await submit(c, '61400000002')).command_status).toBe(STATUS.ESME_ROK);
  });

  it('refuses binds with the status it is given, then accepts them again', async () => {
    await peers[1].control.refuseBinds(STATUS.ESME_RBINDFAIL);
    const c = await open(peers[1], false);
    expect((await request(c.session, 'bind_transmitter', SMSC_CREDENTIALS_FIELDS)).command_status).toBe(STATUS.ESME_RBINDFAIL);
    await c.closed;
    expect((await peers[1].control.refuseBinds(0)).refuseBindsWith).toBe(0);
    await open(peers[1]);
    expect((await peers[1].control.stats()).counters).toMatchObject({ bindsRefused: 1, binds: 1 });
  });

  it('drops every bind at once', async () => {
    const clientsOpen = await Promise.all([open(peers[0]), open(peers[0])]);
    await peers[0].control.dropConnections();
    await Promise.all(clientsOpen.map((c) => c.closed));
    expect((await peers[0].control.stats()).sessions).toEqual([]);
  });

  it('stops answering submits, and answers again when told', async () => {
    const c = await open(peers[0]);
    await peers[0].control.ignoreSubmits(true);
    let ignoredAnswered = false;
    void submit(c, '61400000001').then(() => (ignoredAnswered = true));
    await until(async () => (await peers[0].control.stats()).accepted === 1, 'the ignored submit recorded', 5_000, 10);
    await peers[0].control.ignoreSubmits(false);
    expect((await submit(c, '61400000002')).command_status).toBe(STATUS.ESME_ROK);
    // Answers go out in order on a session: the ignored submit would have been answered first.
    expect(ignoredAnswered).toBe(false);
  });

  it('answers slowly when told', async () => {
    const c = await open(peers[0]);
    await peers[0].control.setRespDelay(150);
    const started = Date.now();
    await submit(c, '61400000001');
    // A lower bound only: the answer cannot come before the delay.
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    expect((await peers[0].control.faults()).respDelayMs).toBe(150);
  });

  it('reports receipts for every part, the first part only, or none', async () => {
    const c = await open(peers[0]);
    const longMessage = (to: string) => [1, 2].map((seq) => submit(c, to, { esm_class: 0x40, short_message: Buffer.concat([UDH(seq), Buffer.from('part')]) }));
    await peers[0].control.setReceipts('none');
    await Promise.all([...longMessage('61499000001'), submit(c, '61499000002')]);
    await peers[0].control.setReceipts('first');
    await Promise.all([...longMessage('61499000003'), submit(c, '61499000004')]);
    await peers[0].control.setReceipts('every');
    await Promise.all(longMessage('61499000005'));
    // Receipts fall due in submit order: once the last message's two are in, every earlier one would be.
    await until(() => c.receipts.filter((r) => r === '61499000005').length === 2, 'both receipts of the last message', 5_000, 10);
    // Receipts owed to earlier tests' sessions are redelivered here too: only this test's numbers count.
    expect(c.receipts.filter((r) => r.startsWith('61499')).sort()).toEqual(['61499000003', '61499000004', '61499000005', '61499000005']);
  });

  it('says what it cannot do with a 400, and clears every fault', async () => {
    await expect(peers[0].control.setSubmitError(0, 0.5)).rejects.toThrow(/400.*status must be a non-zero/);
    await peers[0].control.setSubmitError(STATUS.ESME_RTHROTTLED, 0.7);
    await expect(peers[0].control.setSubmitError(STATUS.ESME_RMSGQFUL, 0.5)).rejects.toThrow(/400.*more than 1/);
    await expect(peers[0].control.setReceipts('sometimes' as 'every')).rejects.toThrow(/400.*mode must be one of every, first, none/);
    await peers[0].control.refuseBinds(STATUS.ESME_RBINDFAIL);
    await peers[0].control.ignoreSubmits(true);
    expect(await peers[0].control.clearFaults()).toEqual({ refuseBindsWith: 0, submitErrors: [], receipts: 'every', queuedRefusals: [], ignoreSubmits: false, respDelayMs: 0 });
  });
});
