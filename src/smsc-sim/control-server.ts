import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SmscSimulator } from './smsc-simulator';

/**
 * A small HTTP control for a simulator running as its own process (multi-instance and chaos tests,
 * benchmarks): what it received, and faults on demand.
 *   GET  /stats                        counters, sessions, submits accepted / distinct destinations / duplicated,
 *                                      first and last accepted submit (epoch ms)
 *   GET  /destinations?prefix=614      accepted submit_sm per destination, for destinations with that prefix
 *   POST /drop-connections             destroys every connection now (every bind is lost)
 *   POST /ignore-submits?on=true|false a hung SMSC: submits recorded, never answered
 *   POST /resp-delay?ms=N              answers each submit_sm N ms late (submits pile up in flight)
 *   POST /reset                        forgets submits and counters
 */
export function startControlServer(simulator: SmscSimulator, port: number, host = '127.0.0.1'): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control');
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /stats') return send(200, stats(simulator));
    if (route === 'GET /destinations') return send(200, Object.fromEntries(acceptedByDestination(simulator, url.searchParams.get('prefix') ?? '')));
    if (route === 'POST /drop-connections') {
      simulator.dropConnections();
      return send(200, { dropped: true });
    }
    if (route === 'POST /ignore-submits') {
      simulator.ignoreSubmits(url.searchParams.get('on') === 'true');
      return send(200, { ignoring: url.searchParams.get('on') === 'true' });
    }
    if (route === 'POST /resp-delay') {
      const ms = Number(url.searchParams.get('ms'));
      if (!Number.isInteger(ms) || ms < 0) return send(400, { error: 'ms must be a non-negative integer' });
      simulator.setRespDelay(ms);
      return send(200, { resp_delay_ms: ms });
    }
    if (route === 'POST /reset') {
      simulator.reset();
      return send(200, { reset: true });
    }
    send(404, { error: 'Not found' });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

export function controlPort(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}

function acceptedByDestination(simulator: SmscSimulator, prefix: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of simulator.submits) {
    if (s.smscId && s.destinationAddr.startsWith(prefix)) counts.set(s.destinationAddr, (counts.get(s.destinationAddr) ?? 0) + 1);
  }
  return counts;
}

function stats(simulator: SmscSimulator) {
  const counts = acceptedByDestination(simulator, '');
  let duplicated = 0;
  for (const n of counts.values()) if (n > 1) duplicated++;
  return {
    counters: simulator.counters,
    sessions: simulator.sessionStats(),
    accepted: [...counts.values()].reduce((a, b) => a + b, 0),
    distinct_destinations: counts.size,
    duplicated_destinations: duplicated,
    // Epoch milliseconds of the first and last accepted submit_sm (benchmarks: time to the peer).
    first_submit_at: simulator.submits.find((s) => s.smscId)?.receivedAt.getTime() ?? null,
    last_submit_at: simulator.submits.findLast((s) => s.smscId)?.receivedAt.getTime() ?? null,
  };
}
