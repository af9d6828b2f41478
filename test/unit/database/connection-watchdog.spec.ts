import type { ClientConfig } from 'pg';
import { HostCheck, PooledConnection, SilenceTracker, SilentConnectionSweeper, SilentHostError } from '../../../src/database/connection-watchdog';

/** A pg client as the watchdog reads it: a query it waits on, bytes read, and a socket it can end. */
class FakeClient {
  active: object | null = null;
  _queryQueue: object[] = [];
  ended: Error | undefined;
  connection = {
    stream: {
      bytesRead: 0,
      destroy: (err: Error) => {
        this.ended = err;
        this.active = null;
      },
    },
  };
  constructor(
    readonly host = '10.0.0.1',
    readonly port = 5432,
  ) {}
  user = 'sms';
  database = 'sms';
  password = 'secret';
  _getActiveQuery(): object | null {
    return this.active;
  }
  ask(): void {
    this.active = {};
  }
  hear(bytes = 100): void {
    this.connection.stream.bytesRead += bytes;
  }
}

const watched = (c: FakeClient) => new PooledConnection(c as never);

describe('SilenceTracker', () => {
  const silenceMs = 1000;

  it('names a connection once it has waited on one query for the silence with nothing read', () => {
    const tracker = new SilenceTracker(silenceMs);
    const client = new FakeClient();
    client.ask();
    expect(tracker.silent([watched(client)], 0)).toEqual([]);
    expect(tracker.silent([watched(client)], 999)).toEqual([]);
    expect(tracker.silent([watched(client)], 1000).map((c) => c.identity)).toEqual([client]);
  });

  it('counts the silence again from any byte read, and from each new query', () => {
    const tracker = new SilenceTracker(silenceMs);
    const client = new FakeClient();
    client.ask();
    tracker.silent([watched(client)], 0);
    client.hear();
    expect(tracker.silent([watched(client)], 900)).toEqual([]);
    expect(tracker.silent([watched(client)], 1800)).toEqual([]);
    client.ask(); // the next query, with no byte read since the last look
    expect(tracker.silent([watched(client)], 1900)).toEqual([]);
    expect(tracker.silent([watched(client)], 2899)).toEqual([]);
    expect(tracker.silent([watched(client)], 2900)).toHaveLength(1);
  });

  it('never names an idle connection, however long since it read', () => {
    const tracker = new SilenceTracker(silenceMs);
    const client = new FakeClient();
    expect(tracker.silent([watched(client)], 0)).toEqual([]);
    expect(tracker.silent([watched(client)], 60_000)).toEqual([]);
    // A query only queued counts as waited on too (pg sends the first queued one once the active one ends).
    client._queryQueue.push({});
    tracker.silent([watched(client)], 60_000);
    expect(tracker.silent([watched(client)], 61_000)).toHaveLength(1);
  });
});

describe('SilentConnectionSweeper', () => {
  const silenceMs = 1000;

  function sweeper(clients: FakeClient[], answers: (like: ClientConfig) => Promise<HostCheck>) {
    let now = 0;
    const checks: ClientConfig[] = [];
    const ends: Array<[string, number]> = [];
    const s = new SilentConnectionSweeper({
      silenceMs,
      connections: () => clients.map(watched),
      check: (like, timeoutMs) => {
        expect(timeoutMs).toBe(silenceMs);
        checks.push(like);
        return answers(like);
      },
      now: () => now,
      onEnd: (host, count) => ends.push([host, count]),
    });
    return { s, checks, ends, at: (ms: number) => (now = ms) };
  }

  it('ends the silent connections of a host that does not answer a new connection, with a 503-class error', async () => {
    const silent = [new FakeClient(), new FakeClient()];
    const idle = new FakeClient();
    const { s, checks, ends, at } = sweeper([...silent, idle], () => Promise.resolve('silent'));
    silent.forEach((c) => c.ask());
    await s.sweep();
    at(1000);
    await s.sweep();
    // One check for the host, as the same user on the same database.
    expect(checks).toEqual([{ host: '10.0.0.1', port: 5432, user: 'sms', database: 'sms', password: 'secret', ssl: undefined }]);
    expect(ends).toEqual([['10.0.0.1:5432', 2]]);
    for (const c of silent) {
      expect(c.ended).toBeInstanceOf(SilentHostError);
      expect(c.ended).toMatchObject({ code: '08006', message: expect.stringMatching(/^Connection terminated: PostgreSQL at 10\.0\.0\.1:5432 sent nothing for 1000 ms/) });
      expect(c.ended!.message).not.toContain('secret');
    }
    expect(idle.ended).toBeUndefined();
  });

  it('leaves the connections of a host that answers, and checks it again only after the silence once more', async () => {
    const slow = new FakeClient();
    const { s, checks, ends, at } = sweeper([slow], () => Promise.resolve('answers'));
    slow.ask();
    await s.sweep();
    at(1000);
    await s.sweep();
    at(1500);
    await s.sweep();
    expect(checks).toHaveLength(1);
    at(2000);
    await s.sweep();
    expect(checks).toHaveLength(2);
    expect(ends).toEqual([]);
    expect(slow.ended).toBeUndefined();
  });

  it('checks each host of silent connections on its own, and ends only those of the host that is silent', async () => {
    const onDead = new FakeClient('10.0.0.1');
    const onLive = new FakeClient('10.0.0.2');
    const { s, checks, at } = sweeper([onDead, onLive], (like) => Promise.resolve(like.host === '10.0.0.1' ? 'silent' : 'answers'));
    onDead.ask();
    onLive.ask();
    await s.sweep();
    at(1000);
    await s.sweep();
    expect(checks.map((c) => c.host).sort()).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(onDead.ended).toBeInstanceOf(SilentHostError);
    expect(onLive.ended).toBeUndefined();
  });

  it('spares a connection that heard from the server, or moved to another query, while the check ran', async () => {
    const heard = new FakeClient();
    const moved = new FakeClient();
    const still = new FakeClient();
    let finishCheck!: (r: HostCheck) => void;
    const { s, at } = sweeper([heard, moved, still], () => new Promise((resolve) => (finishCheck = resolve)));
    [heard, moved, still].forEach((c) => c.ask());
    await s.sweep();
    at(1000);
    const sweeping = s.sweep();
    heard.hear();
    moved.ask();
    finishCheck('silent');
    await sweeping;
    expect(heard.ended).toBeUndefined();
    expect(moved.ended).toBeUndefined();
    expect(still.ended).toBeInstanceOf(SilentHostError);
  });

  it('runs one check per host at a time, however many sweeps come meanwhile', async () => {
    const client = new FakeClient();
    let finishCheck!: (r: HostCheck) => void;
    const { s, checks, at } = sweeper([client], () => new Promise((resolve) => (finishCheck = resolve)));
    client.ask();
    await s.sweep();
    at(1000);
    const first = s.sweep();
    at(1250);
    await s.sweep();
    at(1500);
    await s.sweep();
    expect(checks).toHaveLength(1);
    finishCheck('silent');
    await first;
    expect(client.ended).toBeInstanceOf(SilentHostError);
  });
});
