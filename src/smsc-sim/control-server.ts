import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RECEIPT_MODES } from './sim-faults';
import type { ReceiptMode } from './sim-faults';
import type { SmscSimulator } from './smsc-simulator';

/**
 * A small HTTP control for a simulator running as its own process (multi-instance and chaos tests,
 * benchmarks): what it received, and faults on demand.
 *   GET  /stats                        counters, sessions, submits accepted / distinct destinations / duplicated,
 *                                      first and last accepted submit (epoch ms)
 *   GET  /destinations?prefix=614      accepted submit_sm per destination, for destinations with that prefix
 *   POST /drop-connections             destroys every connection now (every bind is lost)
 *   POST /ignore-submits?on=true|false a hung SMSC ("stop answering"): submits recorded, never answered,
 *                                      enquire_link unanswered too; the TCP connection stays open
 *   POST /resp-delay?ms=N              answers each submit_sm N ms late (submits pile up in flight)
 *   POST /refuse-binds?status=S        answers every bind with status S and closes the connection (0: accept
 *                                      binds again); binds already up stay up (drop them with /drop-connections)
 *   POST /submit-errors?status=S&share=F  answers the share F (0..1, spread evenly) of submit_sm with status S,
 *                                      e.g. 0x58 throttled, 0x14 queue full, 0x08 system error, 0x0B invalid
 *                                      destination; one share per status, share=0 removes it, all shares ≤ 1
 *   POST /fail-next?n=N&status=S       answers the next N submit_sm with status S (before any share)
 *   POST /receipts?mode=every|first|none  receipts for every part, the first part of a concatenated message
 *                                      only, or none
 *   GET  /faults                       the faults in force
 *   POST /clear-faults                 every fault off (binds accepted, no errors, answering at the start-up delay,
 *                                      receipts for every part)
 *   POST /reset                        forgets submits and counters (faults stay)
 * Statuses are decimal or 0x-hexadecimal. A bad parameter answers 400 with {"error": …}.
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
    const fault = faultRoutes[route];
    if (!fault) return send(404, { error: 'Not found' });
    try {
      fault(simulator, url.searchParams);
    } catch (err) {
      if (err instanceof RangeError) return send(400, { error: err.message });
      throw err;
    }
    send(200, simulator.faultSettings());
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

/** Fault controls: each changes the simulator (or throws RangeError for a bad parameter); all answer the faults in force. */
const faultRoutes: Record<string, (simulator: SmscSimulator, params: URLSearchParams) => void> = {
  'GET /faults': () => undefined,
  'POST /refuse-binds': (sim, params) => sim.faults.refuseBinds(status(params, true)),
  'POST /submit-errors': (sim, params) => sim.faults.setSubmitError(status(params, false), number(params, 'share')),
  'POST /fail-next': (sim, params) => {
    const n = number(params, 'n');
    if (!Number.isInteger(n) || n < 0) throw new RangeError('n must be a non-negative integer');
    sim.faults.queueRefusals(n, status(params, false));
  },
  'POST /receipts': (sim, params) => {
    const mode = params.get('mode') ?? '';
    if (!(RECEIPT_MODES as readonly string[]).includes(mode)) throw new RangeError(`mode must be one of ${RECEIPT_MODES.join(', ')}`);
    sim.faults.setReceipts(mode as ReceiptMode);
  },
  'POST /clear-faults': (sim) => sim.clearFaults(),
};

function number(params: URLSearchParams, name: string): number {
  const raw = params.get(name);
  const n = raw === null || raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n)) throw new RangeError(`${name} must be a number`);
  return n;
}

/** A command_status in decimal or 0x-hexadecimal; 0 only where it means "no fault". */
function status(params: URLSearchParams, zeroAllowed: boolean): number {
  const s = number(params, 'status');
  if (!Number.isInteger(s) || s < (zeroAllowed ? 0 : 1) || s > 0xffffffff) {
    throw new RangeError(`status must be a ${zeroAllowed ? '' : 'non-zero '}32-bit command_status`);
  }
  return s;
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
    // submit_sm answered with an error, by status in hexadecimal ("0x58": 12).
    refused_by_status: refusedByStatus(simulator),
    // Epoch milliseconds of the first and last accepted submit_sm (benchmarks: time to the peer).
    first_submit_at: simulator.submits.find((s) => s.smscId)?.receivedAt.getTime() ?? null,
    last_submit_at: simulator.submits.findLast((s) => s.smscId)?.receivedAt.getTime() ?? null,
  };
}

function refusedByStatus(simulator: SmscSimulator): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of simulator.submits) {
    if (s.smscId === null) {
      const key = `0x${s.commandStatus.toString(16).padStart(2, '0')}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}
