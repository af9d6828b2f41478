import net from 'node:net';

/** PostgreSQL's ReadyForQuery message while idle: 'Z', length 5, status 'I'. */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

/** A loopback TCP proxy a test can cut and restore, to make a real dependency unreachable. */
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private frozen = false;
  port = 0;
  /** Connections taken so far, over every start. */
  accepted = 0;

  /**
   * @param silentOnceReady a host that lets a PostgreSQL session start and then answers nothing, as a
   * machine that hangs (or a network that drops everything) after the connection was made: no reset,
   * no close, no reply.
   */
  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    private readonly silentOnceReady = false,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = net.createServer((client) => {
      this.accepted++;
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      if (this.silentOnceReady) forwardUntilReady(client, upstream);
      else {
        // Not pipe(): a pipe resumes a paused socket on 'drain', and freeze() pauses them.
        client.on('data', (chunk: Buffer) => upstream.write(chunk));
        upstream.on('data', (chunk: Buffer) => client.write(chunk));
      }
      if (this.frozen) for (const s of [client, upstream]) s.pause();
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Stops accepting and drops every open connection. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  async restore(): Promise<void> {
    await this.start(this.port);
  }

  /**
   * The host hangs: every connection, open or new, stays open and gets no answer, as from a machine or
   * network that stops without a reset (the kernel still takes what is sent, nothing is forwarded).
   */
  freeze(): void {
    this.frozen = true;
    for (const s of this.sockets) s.pause();
  }

  /** The host answers again: what was held is forwarded, and new connections are served. */
  thaw(): void {
    this.frozen = false;
    for (const s of this.sockets) s.resume();
  }
}

/** Forwards both ways until PostgreSQL says the session is ready (ReadyForQuery), then nothing either way. */
function forwardUntilReady(client: net.Socket, upstream: net.Socket): void {
  let silent = false;
  // The message may arrive split across chunks: the end of the last one is looked at too.
  let tail = Buffer.alloc(0);
  upstream.on('data', (chunk: Buffer) => {
    if (silent) return;
    client.write(chunk);
    const seen = Buffer.concat([tail, chunk]);
    silent = seen.includes(READY_FOR_QUERY);
    tail = seen.subarray(-(READY_FOR_QUERY.length - 1));
  });
  client.on('data', (chunk: Buffer) => {
    if (!silent) upstream.write(chunk);
  });
}
