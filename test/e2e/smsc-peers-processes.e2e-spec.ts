/** SMSC simulators as processes of their own (as the chaos tests and benchmarks run them), started side by side. */
import { connect, PDU } from 'smpp';
import type { Session } from 'smpp';
import { STATUS } from '../../src/smpp/commands';
import { SMSC_CREDENTIALS } from '../support/delivery';
import { SmscPeer, startSmscPeers, stopSmscPeers } from '../support/smsc-peers';

function request(session: Session, command: string, fields: Record<string, unknown> = {}): Promise<PDU> {
  return new Promise((resolve, reject) => {
    if (!session.send(new PDU(command, fields), resolve)) reject(new Error('not writable'));
  });
}

describe('SMSC simulator processes', () => {
  let peers: SmscPeer[];
  const sessions: Session[] = [];

  beforeAll(async () => {
    peers = await startSmscPeers(2, { processes: true, receipts: 'none', messageIdPrefix: () => 'same' });
  });
  afterAll(async () => {
    for (const s of sessions) s.destroy();
    await stopSmscPeers(peers);
  });

  async function bound(peer: SmscPeer): Promise<Session> {
    const session = connect({ host: '127.0.0.1', port: peer.port });
    sessions.push(session);
    session.on('error', () => undefined);
    await new Promise<void>((resolve) => session.on('connect', () => resolve()));
    const resp = await request(session, 'bind_transceiver', { system_id: SMSC_CREDENTIALS.systemId, password: SMSC_CREDENTIALS.password });
    expect(resp.command_status).toBe(STATUS.ESME_ROK);
    return session;
  }

  it('runs each on its own ports with its start-up settings, faults set on one only, and one can die alone', async () => {
    expect(peers.map((p) => p.process?.child.pid).every(Boolean)).toBe(true);
    expect(new Set(peers.flatMap((p) => [p.port, p.control.port])).size).toBe(4);
    expect((await peers[0].control.faults()).receipts).toBe('none');

    const [a, b] = await Promise.all(peers.map(bound));
    // The same id prefix given to both: the same first id on each, as two carriers' ids may collide.
    const first = await Promise.all([a, b].map((s) => request(s, 'submit_sm', { destination_addr: '61400000001', short_message: Buffer.from('hi') })));
    expect(first.map((r) => r.message_id)).toEqual(['same00000001', 'same00000001']);

    await peers[0].control.setSubmitError(STATUS.ESME_RTHROTTLED, 1);
    const second = await Promise.all([a, b].map((s) => request(s, 'submit_sm', { destination_addr: '61400000002', short_message: Buffer.from('hi') })));
    expect(second.map((r) => r.command_status)).toEqual([STATUS.ESME_RTHROTTLED, STATUS.ESME_ROK]);

    expect((await peers[0].process!.stop('SIGKILL')).signal).toBe('SIGKILL');
    const third = await request(b, 'submit_sm', { destination_addr: '61400000003', short_message: Buffer.from('hi') });
    expect(third.command_status).toBe(STATUS.ESME_ROK);
    expect((await peers[1].control.stats()).accepted).toBe(3);
  });
});
