import { fork } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * The campaign bench:dispatch and bench:scale send: request bodies, the POST that sends one, and a client
 * in a process of its own that sends a whole campaign.
 */

/** `total` messages to distinct numbers (from `firstNumber`) as request bodies of `perRequest`, from sender 61400000001. */
export function campaignBodies(total: number, perRequest: number, firstNumber: number): string[] {
  return Array.from({ length: Math.ceil(total / perRequest) }, (_, r) =>
    JSON.stringify({
      messages: Array.from({ length: Math.min(perRequest, total - r * perRequest) }, (_, i) => ({
        to: `04${String(firstNumber + r * perRequest + i).slice(-8)}`,
        message: `Campaign message ${i}: your code is ${1000 + (i % 9000)}`,
        sender: '61400000001',
      })),
    }),
  );
}

/**
 * Loads this process's HTTP client before anything is timed: Node's fetch compiles its bundled client on
 * its first call (80 to 125 ms on an idle 2-core machine), which the first timed request would otherwise
 * count as the service's latency. Only the liveness route is asked, so every route measured is still cold.
 */
export async function loadHttpClient(base: string): Promise<void> {
  const res = await fetch(`${base}/health/live`);
  if (res.status !== 200) throw new Error(`liveness: ${res.status}`);
  await res.arrayBuffer();
}

export async function postSend(base: string, auth: string, body: string): Promise<void> {
  const res = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
  if (res.status !== 200) throw new Error(`send: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

export interface CampaignClientSetup {
  base: string;
  auth: string;
  total: number;
  perRequest: number;
  firstNumber: number;
}

export type CampaignClientReport = { ready: true } | { answeredAt: number[] } | { error: string };

/** Wall-clock time in epoch milliseconds, to a fraction of one: comparable between processes. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * A campaign client in a process of its own (bench/campaign-client.ts), as an API client would be: its
 * HTTP work (encoding and writing the request bodies, reading the 3 MB answers) then stays off the event
 * loop of the service measured, and out of its CPU figure. Resolves once the bodies are built and the
 * client's fetch is loaded; `send()` sends every request at once and resolves with when each was answered
 * (epochNow).
 */
export interface CampaignClient {
  pid: number;
  send(): Promise<number[]>;
  stop(): void;
}

export async function startCampaignClient(setup: CampaignClientSetup): Promise<CampaignClient> {
  const child = fork(path.resolve(__dirname, 'campaign-client.js'), [], { stdio: 'inherit' });
  const next = () =>
    new Promise<CampaignClientReport>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the campaign client exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (m: CampaignClientReport) => {
        child.off('exit', onExit);
        if ('error' in m) reject(new Error(`campaign client: ${m.error}`));
        else resolve(m);
      });
    });
  const ready = next();
  child.send({ setup });
  await ready;
  return {
    pid: child.pid!,
    send: async () => {
      const answered = next();
      child.send({ go: true });
      const report = await answered;
      if (!('answeredAt' in report)) throw new Error('campaign client: no answers reported');
      return report.answeredAt;
    },
    stop: () => void child.kill(),
  };
}
