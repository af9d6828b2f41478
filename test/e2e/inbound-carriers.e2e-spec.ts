import { randomBytes } from 'node:crypto';
import { SMSC_CREDENTIALS } from '../support/delivery';
import { runCliWithInput } from '../support/run-cli';
import { startSmscPeers, stopSmscPeers, type SmscPeer } from '../support/smsc-peers';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// CLI calls are processes of their own (several seconds each on a loaded machine).
jest.setTimeout(240_000);

const KEY = randomBytes(32).toString('hex');

/**
 * Inbound messages (mobile-originated deliver_sm) come in on whichever carrier the mobile's network hands
 * them to, not the one the account's messages went out on: a worker bound to two carriers (added with
 * carrier:add) takes them from either and stores each for the account owning the number it was sent to.
 */
describe('Inbound messages on several carriers', () => {
  let peers: SmscPeer[];
  let t: TestApp;
  let cafe: TestAccount;
  let plumber: TestAccount;
  const CAFE = '61400000071';
  const PLUMBER = '61400000072';

  beforeAll(async () => {
    peers = await startSmscPeers(2);
    t = await startTestApp({ carrierSecretKey: KEY, carrierReloadMs: 200, sweepIntervalMs: 200, claimTimeoutMs: 3000 });
    cafe = await createAccount(t.app, { credits: 100, name: 'Corner Cafe', senders: [CAFE] });
    plumber = await createAccount(t.app, { credits: 100, name: 'Plumber', senders: [PLUMBER] });
    for (const [i, peer] of peers.entries()) {
      const added = await runCliWithInput(
        SMSC_CREDENTIALS.password,
        { CARRIER_SECRET_KEY: KEY },
        'carrier:add',
        '--name',
        `mo-${i + 1}`,
        '--host',
        '127.0.0.1',
        '--port',
        String(peer.port),
        '--system-id',
        SMSC_CREDENTIALS.systemId,
        '--password-stdin',
        '--binds',
        '1',
      );
      expect([added.code, added.stderr]).toEqual([0, '']);
    }
    // A deliver_sm goes to a bound receiver or transceiver session of the SMSC: wait for the worker's binds.
    await until(() => peers.every((p) => p.simulator!.sessionStats().some((s) => s.bound)), 'the worker bound to both carriers', 60_000, 100);
  });
  afterAll(async () => {
    await t?.close();
    await stopSmscPeers(peers);
  });

  const inbound = async (acct: TestAccount) =>
    ((await t.api.get('/v1/inbound', { auth: acct.auth })).body.results as Array<{ from: string; to: string; message: string }>).map((r) => [r.from, r.to, r.message]).sort();

  it('stores a message arriving on either carrier for the account owning the number it was sent to', async () => {
    // injectMo resolves when the worker acknowledged the deliver_sm, which it does only after storing it.
    await peers[0].simulator!.injectMo({ from: '61412700001', to: CAFE, text: 'Table for two on carrier one' });
    await peers[1].simulator!.injectMo({ from: '61412700002', to: CAFE, text: 'Table for four on carrier two' });
    await peers[1].simulator!.injectMo({ from: '61412700003', to: PLUMBER, text: 'Leaking tap, carrier two' });
    await peers[0].simulator!.injectMo({ from: '61412700004', to: PLUMBER, text: 'Blocked drain, carrier one' });

    expect(await inbound(cafe)).toEqual([
      ['61412700001', CAFE, 'Table for two on carrier one'],
      ['61412700002', CAFE, 'Table for four on carrier two'],
    ]);
    expect(await inbound(plumber)).toEqual([
      ['61412700003', PLUMBER, 'Leaking tap, carrier two'],
      ['61412700004', PLUMBER, 'Blocked drain, carrier one'],
    ]);
    expect(peers.map((p) => [p.simulator!.counters.moSent, p.simulator!.counters.moAcked])).toEqual([
      [2, 2],
      [2, 2],
    ]);
  });
});
