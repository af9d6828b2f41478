import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { startSmscPeers, stopSmscPeers, type SmscPeer } from '../support/smsc-peers';
import { SMSC_CREDENTIALS } from '../support/delivery';
import { CliResult, runCli, runCliWithInput } from '../support/run-cli';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// CLI calls are processes of their own (several seconds each on a loaded machine).
jest.setTimeout(240_000);

const KEY = randomBytes(32).toString('hex');

/**
 * A worker started with no SMSC at all picks up carriers the operator adds with the CLI, routes by the
 * route table, and lets go of a disabled carrier: all without a restart, against two SMSC simulators on
 * loopback.
 */
describe('Carriers added at run time', () => {
  let peers: SmscPeer[];
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    peers = await startSmscPeers(2);
    t = await startTestApp({ carrierSecretKey: KEY, carrierReloadMs: 200, sweepIntervalMs: 200, claimTimeoutMs: 3000, testReceiptDelayMs: 300 });
    acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
  });
  afterAll(async () => {
    await t?.close();
    await stopSmscPeers(peers);
  });

  const add = (name: string, peer: SmscPeer) =>
    runCliWithInput(
      SMSC_CREDENTIALS.password,
      { CARRIER_SECRET_KEY: KEY },
      'carrier:add',
      '--name',
      name,
      '--host',
      '127.0.0.1',
      '--port',
      String(peer.port),
      '--system-id',
      SMSC_CREDENTIALS.systemId,
      '--password-stdin',
      '--binds',
      '2',
      '--window',
      '10',
    );
  const health = async () => (await t.api.get('/health')).body as { carrier: { carriers: Array<{ id: number; name: string; state: string; binds_up: number }> } };
  const send = async (to: string) => {
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to, message: 'via the table', sender: 'Brand' }] } });
    expect(res.status).toBe(200);
    return res.body.results[0].message_id as string;
  };
  const delivered = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status === 'delivered';
  const carrierOf = async (id: string) => (await t.app.get(DataSource).query('SELECT carrier_id FROM message_parts WHERE message_id = $1', [id]))[0]?.carrier_id as number;
  const reached = (peer: SmscPeer, to: string) => peer.simulator!.submits.filter((s) => s.destinationAddr === to).length;

  it('binds a carrier added by carrier:add and sends through it, routes by route:add, and drains a disabled one', async () => {
    expect((await health()).carrier.carriers).toEqual([]);

    const first = await add('first', peers[0]);
    expect(first.code).toBe(0);
    await until(async () => (await health()).carrier.carriers.some((c) => c.name === 'first' && c.binds_up === 2), 'the added carrier bound');
    const viaFirst = await send('0412300001');
    await until(() => delivered(viaFirst), 'delivered through the added carrier');
    expect(reached(peers[0], '61412300001')).toBe(1);
    expect(await carrierOf(viaFirst)).toBe(first.json.id);

    // A second carrier and a rule sending 61413… to it alone; the rest share the default route.
    const second = await add('second', peers[1]);
    expect(second.code).toBe(0);
    expect((await runCli('route:add', '--to', '61413', '--carrier', 'second')).code).toBe(0);
    await until(async () => (await health()).carrier.carriers.some((c) => c.name === 'second' && c.binds_up === 2), 'the second carrier bound');
    // The route is read with the carriers (same version row); give the worker one reload after the rule.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const routed = await Promise.all(['0413300001', '0413300002', '0413300003'].map(send));
    for (const id of routed) await until(() => delivered(id), 'delivered through the routed carrier');
    for (const n of ['61413300001', '61413300002', '61413300003']) expect([n, reached(peers[1], n), reached(peers[0], n)]).toEqual([n, 1, 0]);
    for (const id of routed) expect(await carrierOf(id)).toBe(second.json.id);

    // Workers publish what carrier:status reads every 2 s: the second carrier shows once a publication after its binds has landed.
    let status: CliResult | undefined;
    await until(async () => {
      status = await runCli('carrier:status');
      return status.code === 0 && status.json.carriers.length === 2;
    }, 'carrier:status showing both carriers');
    if (!status) throw new Error('carrier:status never ran');
    expect(status.code).toBe(0);
    expect(status.json.carriers.map((c: { carrier: string; binds: string; state: string }) => [c.carrier, c.binds, c.state])).toEqual([
      ['first', '2/2 up', 'up'],
      ['second', '2/2 up', 'up'],
    ]);

    // Disabled: it drains, unbinds, and leaves the worker's list; its rule is then passed over.
    expect((await runCli('carrier:disable', '--name', 'second')).json).toMatchObject({ enabled: false });
    await until(async () => !(await health()).carrier.carriers.some((c) => c.name === 'second'), 'the disabled carrier gone');
    await until(() => !peers[1].simulator!.sessionStats().some((s) => s.bound), 'its binds closed at the SMSC');
    const after = await send('0413300009');
    await until(() => delivered(after), 'delivered through the remaining carrier');
    expect([reached(peers[0], '61413300009'), reached(peers[1], '61413300009')]).toEqual([1, 0]);
  });
});
