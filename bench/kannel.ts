import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { cpuMicros, loadAverages } from './dispatch-measures';
import { SimulatorProcess, startSimulatorProcess } from './simulator-process';
import { argValue, fmt, freePort, until } from './support';
import { reportResult } from './bench-result';

/**
 * npm run bench:kannel [-- --messages 50000 --no-dlr]
 * The reference bench:dispatch is measured against: Kannel (Debian's package: apt-get install kannel)
 * pushing the same campaign to the same bundled SMSC simulator (its own process, receipts after 1 s):
 * 4 binds × 100 pending submits, requests of 100 space-separated recipients (GET /cgi-bin/sendsms) over
 * 5 connections, each message with dlr-mask 3 and a dlr-url answered here (--no-dlr: no delivery
 * reports). Kannel keeps its delivery reports in memory (dlr-storage internal, its default) and stores
 * no message. Prints the same times as bench:dispatch, the DLRs that reached the dlr-url, and CPU per
 * message of bearerbox and smsbox from /proc. Run it beside bench:dispatch, alternately.
 */
const BEARERBOX = '/usr/sbin/bearerbox';
const SMSBOX = '/usr/sbin/smsbox';
const PER_REQUEST = 100;
const CONNECTIONS = 5;

async function main() {
  if (!existsSync(BEARERBOX) || !existsSync(SMSBOX)) {
    console.error('Kannel is not installed: apt-get install kannel');
    process.exit(1);
  }
  const total = argValue('messages', 50_000);
  const reports = !process.argv.includes('--no-dlr');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kannel-bench-'));
  const boxes: ChildProcess[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let simulator: SimulatorProcess | undefined;
  let dlrs = 0;
  let lastDlrAt = 0;
  const dlrReceiver = http.createServer((_req, res) => {
    dlrs++;
    lastDlrAt = Date.now();
    res.end('ok');
  });
  let finished = false;
  try {
    const sim = (simulator = await startSimulatorProcess(1000));
    await new Promise<void>((resolve, reject) => dlrReceiver.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { bearerbox, smsbox, sendsmsPort } = await startKannel(dir, sim.port, boxes);
    // As bench:dispatch does before its clock starts: let the binds settle.
    await new Promise((r) => setTimeout(r, 1000));

    const pids = [bearerbox.pid!, smsbox.pid!];
    const cpuBefore = { bearerbox: cpuMicros(pids[0]), smsbox: cpuMicros(pids[1]), simulator: cpuMicros(sim.process.pid!) };
    const dlrUrl = `http://127.0.0.1:${(dlrReceiver.address() as net.AddressInfo).port}/dlr?status=%d&to=%p`;
    const start = Date.now();
    let firstAnswer = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: Math.ceil(total / PER_REQUEST) }, (_, r) => {
        const count = Math.min(PER_REQUEST, total - r * PER_REQUEST);
        const to = Array.from({ length: count }, (_, i) => `04${String(10_000_000 + r * PER_REQUEST + i).slice(-8)}`).join(' ');
        const query = new URLSearchParams({
          username: 'bench',
          password: 'bench',
          from: '61400000001',
          to,
          text: `Campaign message ${r}: your code is ${1000 + (r % 9000)}`,
          ...(reports ? { 'dlr-mask': '3', 'dlr-url': dlrUrl } : {}),
        });
        return httpGet(`http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms?${query}`, agent).then((status) => {
          firstAnswer ||= Date.now();
          if (status >= 300) refused++;
        });
      }),
    );
    const allAnswered = Date.now();
    await until(async () => (await sim.stats()).counters.submits >= total, 'every submit_sm at the simulator', 120_000);
    if (reports) await until(async () => (await sim.stats()).counters.receiptsAcked >= total, 'every receipt acknowledged to the SMSC', 120_000);
    const receiptsAckedAt = Date.now();
    if (reports) await until(async () => dlrs >= total, 'every DLR at the dlr-url', 120_000);
    const cpu = {
      bearerbox: cpuMicros(pids[0]) - cpuBefore.bearerbox,
      smsbox: cpuMicros(pids[1]) - cpuBefore.smsbox,
      simulator: cpuMicros(sim.process.pid!) - cpuBefore.simulator,
    };
    const peer = await sim.stats();
    const perMessage = (us: number) => Math.round(us / total);
    console.log(
      `Kannel: ${total} messages in ${Math.ceil(total / PER_REQUEST)} sendsms requests of ${PER_REQUEST} over ${CONNECTIONS} connections, SMPP 4 binds × 100 pending, ` +
        (reports ? 'delivery reports (dlr-mask 3) to a dlr-url' : 'no delivery reports'),
    );
    console.log(`  first request answered               ${fmt((firstAnswer - start) / 1000)} s`);
    console.log(`  all answered                         ${fmt((allAnswered - start) / 1000)} s (${refused} refused)`);
    console.log(`  first at the peer                    ${fmt((peer.first_submit_at! - start) / 1000)} s`);
    console.log(`  all at the peer                      ${fmt((peer.last_submit_at! - start) / 1000)} s (${peer.counters.submits} submit_sm accepted)`);
    const sustained = Math.round(total / ((peer.last_submit_at! - peer.first_submit_at!) / 1000));
    console.log(`  sustained at the peer                ${sustained} messages/s`);
    reportResult({ sustained });
    if (reports) {
      console.log(
        `  every receipt acknowledged           ${fmt((receiptsAckedAt - start) / 1000)} s (${peer.counters.receiptsAcked} deliver_sm_resp at the simulator, polled every 50 ms)`,
      );
      console.log(`  every DLR at the dlr-url             ${fmt((lastDlrAt - start) / 1000)} s (${dlrs} DLRs)`);
    }
    console.log(
      `  CPU per message                      ${perMessage(cpu.bearerbox + cpu.smsbox)} µs Kannel = bearerbox ${perMessage(cpu.bearerbox)} µs + smsbox ${perMessage(cpu.smsbox)} µs (simulator ${perMessage(cpu.simulator)} µs)`,
    );
    console.log(
      `  Kannel ÷ simulator CPU               ${fmt((cpu.bearerbox + cpu.smsbox) / cpu.simulator)} (comparable with bench:dispatch's only with delivery reports on: without, the simulator sends no receipts)`,
    );
    console.log(`  load average (1, 5, 15 min)          ${loadAverages()}`);
    finished = true;
  } finally {
    agent.destroy();
    await stopAll(boxes);
    simulator?.process.kill('SIGTERM');
    dlrReceiver.close();
    if (!finished) printLogTails(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * bearerbox with its four binds online, then smsbox connected to it and answering; both are pushed onto
 * `boxes` as soon as they start, for the caller to stop whatever happens.
 */
async function startKannel(dir: string, smscPort: number, boxes: ChildProcess[]): Promise<{ bearerbox: ChildProcess; smsbox: ChildProcess; sendsmsPort: number }> {
  const [adminPort, boxPort, sendsmsPort] = [await freePort(), await freePort(), await freePort()];
  const config = path.join(dir, 'kannel.conf');
  writeFileSync(config, kannelConfig({ adminPort, boxPort, sendsmsPort, smscPort, dir }));
  const status = () => fetchText(`http://127.0.0.1:${adminPort}/status.txt?password=bench`);
  // -v 4: only panics on the console (its default is debug, which costs more CPU than the work).
  const bearerbox = spawn(BEARERBOX, ['-v', '4', config], { stdio: 'ignore' });
  boxes.push(bearerbox);
  // Each SMSC instance shows "(online Ns" once bound (box connections say "on-line").
  await until(async () => (await status()).match(/\(online/g)?.length === 4, 'four binds online');
  const smsbox = spawn(SMSBOX, ['-v', '4', config], { stdio: 'ignore' });
  boxes.push(smsbox);
  await until(async () => (await status()).includes('smsbox:') && (await fetchText(`http://127.0.0.1:${sendsmsPort}/`)) !== '', 'smsbox connected and answering');
  return { bearerbox, smsbox, sendsmsPort };
}

/** SIGTERM, then SIGKILL for a box still running after 5 s (bearerbox drains its queues first, which may never happen). */
async function stopAll(processes: ChildProcess[]): Promise<void> {
  const running = (p: ChildProcess) => p.exitCode === null && p.signalCode === null;
  for (const p of [...processes].reverse()) p.kill('SIGTERM');
  const deadline = Date.now() + 5000;
  while (processes.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const p of processes.filter(running)) p.kill('SIGKILL');
}

function printLogTails(dir: string): void {
  for (const log of ['bearerbox.log', 'smsbox.log']) {
    const file = path.join(dir, log);
    if (existsSync(file)) console.error(`--- ${log} (last lines)\n${readFileSync(file, 'utf8').split('\n').slice(-20).join('\n')}`);
  }
}

function kannelConfig(o: { adminPort: number; boxPort: number; sendsmsPort: number; smscPort: number; dir: string }): string {
  return `group = core
admin-port = ${o.adminPort}
admin-password = bench
smsbox-port = ${o.boxPort}
box-allow-ip = 127.0.0.1
log-level = 4
log-file = "${o.dir}/bearerbox.log"
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = sim
host = 127.0.0.1
port = ${o.smscPort}
transceiver-mode = true
smsc-username = bench
smsc-password = benchpw
system-type = ""
instances = 4
max-pending-submits = 100

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${o.boxPort}
sendsms-port = ${o.sendsmsPort}
log-level = 4
log-file = "${o.dir}/smsbox.log"

group = sendsms-user
username = bench
password = bench
`;
}

function fetchText(url: string): Promise<string> {
  return fetch(url)
    .then((r) => r.text())
    .catch(() => '');
}

function httpGet(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
