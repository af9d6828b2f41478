/** Our Session on one end of a loopback connection, a raw socket on the other: what goes over the wire. */
import net from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { PDU } from 'smpp';
import { DELIVER_SM, ENQUIRE_LINK, ENQUIRE_LINK_RESP, GENERIC_NACK, STATUS, SUBMIT_SM, UNBIND, UNBIND_RESP } from '../../../src/smpp/commands';
import { encodeHeaderOnly, MAX_SEQUENCE, PduFramer, sequenceAfter } from '../../../src/smpp/pdu';
import { Session } from '../../../src/smpp/session';
import type { SessionOptions } from '../../../src/smpp/session';
import { encodeSubmitSmResp } from '../../../src/smpp/smsc-pdus';

interface Wire {
  commandId: number;
  status: number;
  sequence: number;
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe(sequenceAfter.name, () => {
  it('numbers up to 0x7FFFFFFF, then 1 again (SMPP 3.4 §5.1.4), never 0', () => {
    expect([sequenceAfter(0), sequenceAfter(41), sequenceAfter(MAX_SEQUENCE - 1), sequenceAfter(MAX_SEQUENCE)]).toEqual([1, 42, 0x7fffffff, 1]);
  });
});

describe(Session.name, () => {
  let server: Server;
  let peer: Socket;
  let session: Session;
  /** PDUs the peer received from the session. */
  let received: Wire[];
  /** Requests the session handed to its owner, and whether the owner served them. */
  let requests: Wire[];
  let serves: boolean;
  let closedWith: string | null;

  async function open(options: Partial<SessionOptions> = {}): Promise<void> {
    received = [];
    requests = [];
    serves = true;
    closedWith = null;
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    // A session of an earlier test may close during this one: only this one's events count.
    const mine = (): boolean => session === opened;
    const opened: Session = new Session(
      socket,
      {
        request: (pdu, commandId, sequence) => {
          requests.push({ commandId, status: pdu.readUInt32BE(8), sequence });
          return serves;
        },
        closed: (reason) => {
          if (mine()) closedWith = reason;
        },
      },
      { requestTimeoutMs: 2_000, enquireLinkMs: 60_000, window: 3, ...options },
    );
    session = opened;
    peer = await accepted;
    const framer = new PduFramer();
    peer.on('data', (chunk: Buffer) => framer.push(chunk, (pdu) => received.push({ commandId: pdu.readUInt32BE(4), status: pdu.readUInt32BE(8), sequence: pdu.readUInt32BE(12) })));
    peer.on('error', () => undefined);
  }

  beforeEach(async () => {
    server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    session.destroy('test over');
    peer?.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends a submit_sm-like request (its header is all the peer reads) and records its response's message id. */
  function submit(answers: Array<string | null>): boolean {
    const sequence = session.nextSequence();
    return session.request(sequence, encodeHeaderOnly(SUBMIT_SM, 0, sequence), answers, (list, resp) => list.push(resp ? resp.toString('latin1', 16, resp.length - 1) : null));
  }

  it('numbers requests from 1 and hands each response to its own request, in whatever order they come', async () => {
    await open();
    const answers: Array<Array<string | null>> = [[], [], []];
    for (const list of answers) expect(submit(list)).toBe(true);
    await waitFor('three submits', () => received.length === 3);
    expect(received.map((p) => [p.commandId, p.sequence])).toEqual([
      [SUBMIT_SM, 1],
      [SUBMIT_SM, 2],
      [SUBMIT_SM, 3],
    ]);
    peer.write(Buffer.concat([encodeSubmitSmResp(3, 'c'), encodeSubmitSmResp(1, 'a'), encodeSubmitSmResp(2, 'b')]));
    await waitFor('three answers', () => answers.every((list) => list.length === 1));
    expect(answers).toEqual([['a'], ['b'], ['c']]);
    expect(session.inFlight).toBe(0);
  });

  it('sends no more than `window` requests unanswered, and takes one more once one is answered', async () => {
    await open({ window: 2 });
    const answers: Array<string | null> = [];
    expect([submit(answers), submit(answers)]).toEqual([true, true]);
    expect(session.hasRoom).toBe(false);
    expect(submit(answers)).toBe(false);
    peer.write(encodeSubmitSmResp(1, 'a'));
    await waitFor('room in the window', () => session.hasRoom);
    expect(submit(answers)).toBe(true);
    expect(session.inFlight).toBe(2);
  });

  it("answers the peer's enquire_link with enquire_link_resp of the same sequence number", async () => {
    await open();
    peer.write(encodeHeaderOnly(ENQUIRE_LINK, 0, 4242));
    await waitFor('enquire_link_resp', () => received.length === 1);
    expect(received[0]).toEqual({ commandId: ENQUIRE_LINK_RESP, status: 0, sequence: 4242 });
  });

  it("answers the peer's unbind with unbind_resp and closes, giving unanswered requests null", async () => {
    await open();
    const answers: Array<string | null> = [];
    submit(answers);
    peer.write(encodeHeaderOnly(UNBIND, 0, 11));
    await waitFor('the session to close', () => closedWith !== null);
    expect(received.slice(1)).toEqual([{ commandId: UNBIND_RESP, status: 0, sequence: 11 }]);
    expect(answers).toEqual([null]);
    expect(closedWith).toBe('unbound by the peer');
  });

  it('hands other requests to its owner, and answers one the owner does not serve with generic_nack ESME_RINVCMDID', async () => {
    await open();
    peer.write(new PDU('deliver_sm', { sequence_number: 8, short_message: 'hi' }).toBuffer());
    await waitFor('the deliver_sm', () => requests.length === 1);
    expect(requests[0]).toEqual({ commandId: DELIVER_SM, status: 0, sequence: 8 });
    serves = false;
    peer.write(Buffer.from([0, 0, 0, 16, 0x00, 0x00, 0x00, 0x99, 0, 0, 0, 0, 0, 0, 0, 7]));
    await waitFor('generic_nack', () => received.length === 1);
    expect(received[0]).toEqual({ commandId: GENERIC_NACK, status: STATUS.ESME_RINVCMDID, sequence: 7 });
  });

  it('closes when a request goes unanswered past requestTimeoutMs, naming it', async () => {
    await open({ requestTimeoutMs: 100 });
    const answers: Array<string | null> = [];
    submit(answers);
    await waitFor('the session to close', () => closedWith !== null);
    expect(closedWith).toBe('submit_sm_resp timed out');
    expect(answers).toEqual([null]);
  });

  it('sends enquire_link when the peer is quiet, only while keep-alive is on', async () => {
    await open({ enquireLinkMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
    session.keepAlive(true);
    await waitFor('enquire_link', () => received.some((p) => p.commandId === ENQUIRE_LINK));
    const enquire = received.find((p) => p.commandId === ENQUIRE_LINK) as Wire;
    peer.write(encodeHeaderOnly(ENQUIRE_LINK_RESP, 0, enquire.sequence));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closedWith).toBeNull();
  });

  it('answers an impossible command_length with generic_nack ESME_RINVCMDLEN and closes, after handling the PDUs before it', async () => {
    await open();
    peer.write(Buffer.concat([encodeHeaderOnly(ENQUIRE_LINK, 0, 31), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0])]));
    await waitFor('the session to close', () => closedWith !== null);
    expect(received).toEqual([
      { commandId: ENQUIRE_LINK_RESP, status: 0, sequence: 31 },
      { commandId: GENERIC_NACK, status: STATUS.ESME_RINVCMDLEN, sequence: 0 },
    ]);
    expect(closedWith).toMatch(/^unreadable PDU from the peer: PDU command_length 4 is out of range/);
  });

  it('sends unbind and resolves once the peer has answered and the connection closed', async () => {
    await open();
    peer.on('data', (chunk: Buffer) => {
      if (chunk.readUInt32BE(4) === UNBIND) peer.end(encodeHeaderOnly(UNBIND_RESP, 0, chunk.readUInt32BE(12)));
    });
    await session.unbind();
    expect(received).toEqual([{ commandId: UNBIND, status: 0, sequence: 1 }]);
    expect(closedWith).toBe('unbound');
    expect(session.writable).toBe(false);
  });

  it('ignores a response no request is waiting for, and goes on', async () => {
    await open();
    peer.write(encodeSubmitSmResp(99, 'x'));
    peer.write(encodeHeaderOnly(ENQUIRE_LINK, 0, 1));
    await waitFor('enquire_link_resp', () => received.length === 1);
    expect(received[0].commandId).toBe(ENQUIRE_LINK_RESP);
    expect(requests).toEqual([]);
    expect(closedWith).toBeNull();
  });
});
