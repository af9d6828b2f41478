import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** The request's path and query. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received. */
  raw: string;
  body: any;
  /** When the whole request had arrived (before any answer delay). */
  arrivedAt: number;
  receivedAt: number;
}

/** `bodyBytes`: answer with a body this long; `endless`: send the head and a first chunk, and never end. */
type Behaviour = { status?: number; delayMs?: number; destroy?: boolean; bodyBytes?: number; endless?: boolean };

/** A real HTTP receiver on loopback for webhook tests: records every request, answers as told. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests whose whole body has arrived, answered or not yet (a delayed answer counts at once). */
  arrived = 0;
  private server?: http.Server;
  private plan: Behaviour[] = [];
  private fallback: Behaviour = { status: 200 };
  port = 0;

  /** The next responses, in order; afterwards the default applies. */
  respondNext(...behaviours: Behaviour[]): void {
    this.plan.push(...behaviours);
  }

  setDefault(behaviour: Behaviour): void {
    this.fallback = behaviour;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async start(port = 0): Promise<number> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const arrivedAt = Date.now();
        this.arrived++;
        const raw = Buffer.concat(chunks).toString('utf8');
        const behaviour = this.plan.shift() ?? this.fallback;
        const answer = () => {
          if (behaviour.destroy) return req.socket.destroy();
          this.received.push({ path: req.url ?? '', headers: req.headers, raw, body: safeJson(raw), arrivedAt, receivedAt: Date.now() });
          res.writeHead(behaviour.status ?? 200, { 'content-type': 'text/plain' });
          if (behaviour.endless) res.write('still coming');
          else res.end(behaviour.bodyBytes ? 'x'.repeat(behaviour.bodyBytes) : 'ok');
        };
        if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
        else answer();
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
