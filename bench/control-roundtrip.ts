/**
 * Control round trip: the console's click to the device's acknowledgement back on the console.
 * A console sends commands as the Control panel does (POST {g}/{sn}/DeviceCommand over HTTP with
 * its session) and listens with its own live client (apps/web/src/lib/live/mq-client.ts, MQTT over
 * WebSocket) for the server's `ack` event; a simulated device (MQTT over TCP, QoS 1) answers each
 * command at once. The time is from the moment the POST starts to the moment the console's handler
 * has the event: HTTP, the server's checks and device log write, the publish to the device, its
 * answer, the log update and the event back. COMMANDS_PER_S commands (default 5) for DURATION
 * seconds (default 60) each:
 *
 *   idle     nothing else happening;
 *   loaded   with LOAD_DEVICES devices (default 1,000) publishing POINTS points (50) every
 *            INTERVAL seconds (10) from a random phase, as a fleet does (bench/fleet-load.ts, its
 *            own process, so that it does not slow the measuring one).
 *
 * In the same run, the ceiling: the bare broker (Aedes with no hooks, bench/bare-broker.ts), a
 * client publishing the command to the device and receiving its answer, CEILING seconds (20).
 * The benchmark fails when a command goes unanswered or is refused.
 *
 *   npm run bench:control
 */
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { MqClient } from '../apps/web/src/lib/live/mq-client.ts';
import { ROOT, login, percentile, prepare, startServer, usage } from './live-server.ts';

const LOAD_DEVICES = Number(process.env.LOAD_DEVICES ?? 1000);
const POINTS = Number(process.env.POINTS ?? 50);
const INTERVAL_MS = Number(process.env.INTERVAL ?? 10) * 1000;
const DURATION_S = Number(process.env.DURATION ?? 60);
const CEILING_S = Number(process.env.CEILING ?? 20);
const COMMANDS_PER_S = Number(process.env.COMMANDS_PER_S ?? 5);
const KEY = 'PumpRun';

const load = () =>
  loadavg()
    .slice(0, 1)
    .map((l) => l.toFixed(1))
    .join('');
const ms = (v: number) => `${v.toFixed(1)} ms`;
const failures: string[] = [];

interface Phase {
  name: string;
  roundTrips: number[];
  http: number[];
  sent: number;
  refused: number;
  missing: number;
}

const summary = (p: Phase) => {
  const sorted = [...p.roundTrips].sort((a, b) => a - b);
  const http = [...p.http].sort((a, b) => a - b);
  return `${p.name.padEnd(8)} ${String(p.sent)} commands, ${String(p.roundTrips.length)} answered, ${String(p.missing)} missing, ${String(p.refused)} refused; round trip p50 ${ms(percentile(sorted, 50))}  p90 ${ms(percentile(sorted, 90))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1) ?? NaN)}; HTTP p99 ${ms(percentile(http, 99))}`;
};

/** A device that answers every command at once (and reports the new value). */
function answerCommands(client: MqttClient, prefix: string, ackTopic: string, dataTopic: string | undefined): void {
  client.on('message', (topic, payload) => {
    if (!topic.startsWith(prefix)) return;
    const command = JSON.parse(payload.toString()) as { Id: string; Value: number };
    client.publish(ackTopic, JSON.stringify({ Id: command.Id, Success: true, Value: command.Value, Time: Date.now() }), {
      qos: 1,
    });
    if (dataTopic) client.publish(dataTopic, JSON.stringify({ Time: Date.now(), [KEY]: command.Value }), { qos: 1 });
  });
}

/** Runs `issue` COMMANDS_PER_S times a second for `seconds`, then waits for stragglers. */
async function pace(seconds: number, issue: (seq: number) => void): Promise<number> {
  let seq = 0;
  const timer = setInterval(() => {
    issue(seq++);
  }, 1000 / COMMANDS_PER_S);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  clearInterval(timer);
  await new Promise((r) => setTimeout(r, 3000));
  return seq;
}

console.log(
  `Control round trip: ${String(COMMANDS_PER_S)} commands/s, ${String(DURATION_S)} s idle and ${String(DURATION_S)} s with ${String(LOAD_DEVICES)} devices × ${String(POINTS)} points every ${String(INTERVAL_MS / 1000)} s; load ${load()}`,
);

// ---- Ceiling: the bare broker, command out and answer back, no server -------------------------
let ceiling: Phase | undefined;
if (CEILING_S > 0) {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bench/bare-broker.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    child.stdout.once('data', (chunk: Buffer) => {
      resolve(Number(chunk.toString().trim()));
    });
  });
  const url = `mqtt://127.0.0.1:${String(port)}`;
  const device = await mqtt.connectAsync(url, { clientId: 'bare-device', protocolVersion: 4 });
  await device.subscribeAsync('bare/device/cmd', { qos: 1 });
  answerCommands(device, 'bare/device/cmd', 'bare/device/ack', undefined);
  const consoleClient = await mqtt.connectAsync(url, { clientId: 'bare-console', protocolVersion: 4 });
  await consoleClient.subscribeAsync('bare/device/ack', { qos: 0 });
  const started = new Map<string, number>();
  ceiling = { name: 'ceiling', roundTrips: [], http: [], sent: 0, refused: 0, missing: 0 };
  const phase = ceiling;
  consoleClient.on('message', (_topic, payload) => {
    const id = (JSON.parse(payload.toString()) as { Id: string }).Id;
    const at = started.get(id);
    if (at === undefined) return;
    started.delete(id);
    phase.roundTrips.push(performance.now() - at);
  });
  phase.sent = await pace(CEILING_S, (seq) => {
    const id = `c${String(seq)}`;
    started.set(id, performance.now());
    consoleClient.publish('bare/device/cmd', JSON.stringify({ Id: id, Key: KEY, Value: seq % 2, Time: Date.now() }), { qos: 1 });
  });
  phase.missing = started.size;
  await Promise.all([device.endAsync(true), consoleClient.endAsync(true)]);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  console.log(`  ${summary(phase)}`);
}

// ---- The server -------------------------------------------------------------------------------
const { dataDir, groupId, devices } = await prepare(LOAD_DEVICES + 1);
const target = devices[LOAD_DEVICES];
if (!target) throw new Error('no target device');
const fleetDevices = devices.slice(0, LOAD_DEVICES);
{
  // The target's switch: a boolean data point, which every command is checked against.
  const database = await openDatabase({ dataDir });
  await database.db
    .insertInto('device_data_defines')
    .values({
      group_id: groupId,
      device_sn: target.sn,
      panel_id: null,
      data_key: KEY,
      data_name: 'Pump run',
      data_type: 'boolean',
      format: '{"0":"Stop","1":"Run"}',
      unit: '',
    })
    .execute();
  await database.close();
}
const server = await startServer(dataDir);
const token = await login(server.port);
const base = `http://127.0.0.1:${String(server.port)}/api`;
const topic = (sn: string, kind: string) => `sluice/${String(groupId)}/${sn}/${kind}`;

const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${String(server.mqttPort)}`, {
  clientId: target.sn,
  username: target.sn,
  password: target.secret,
  protocolVersion: 4,
});
await device.subscribeAsync(topic(target.sn, 'cmd'), { qos: 1 });
answerCommands(device, topic(target.sn, 'cmd'), topic(target.sn, 'ack'), topic(target.sn, 'data'));
await device.publishAsync(topic(target.sn, 'data'), JSON.stringify({ Time: Date.now(), [KEY]: 0 }), { qos: 1 });

// The console's own live client, as the browser runs it.
const viewer = new MqClient((url, options) => mqtt.connect(url, options), {
  info: () => undefined,
  warn: (m) => {
    console.warn(m);
  },
});
const startedAt = new Map<string, number>();
/** Events that arrived before their POST returned (the device can be that fast). */
const early = new Map<string, number>();
let current: Phase | undefined;
await viewer.subscribe(topic(target.sn, 'event'), (payload) => {
  const at = performance.now();
  const event = payload as { Type?: string; Id?: string; Success?: boolean };
  if (event.Type !== 'ack' || typeof event.Id !== 'string' || !current) return;
  const sent = startedAt.get(event.Id);
  if (sent === undefined) {
    early.set(event.Id, at);
    return;
  }
  startedAt.delete(event.Id);
  current.roundTrips.push(at - sent);
});
await viewer.connect({
  url: `ws://127.0.0.1:${String(server.port)}/mqtt`,
  clientId: 'bench-console',
  username: 'admin',
  password: token,
  connectTimeoutMs: 5000,
  keepaliveSeconds: 10,
  clean: true,
});
await new Promise((r) => setTimeout(r, 1000));

async function runPhase(name: string, seconds = DURATION_S): Promise<Phase> {
  const phase: Phase = { name, roundTrips: [], http: [], sent: 0, refused: 0, missing: 0 };
  current = phase;
  const inFlight: Promise<void>[] = [];
  phase.sent = await pace(seconds, (seq) => {
    const t0 = performance.now();
    inFlight.push(
      fetch(`${base}/${String(groupId)}/${target?.sn ?? ''}/DeviceCommand`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ Key: KEY, Value: seq % 2 }),
      }).then(async (res) => {
        phase.http.push(performance.now() - t0);
        const body = (await res.json()) as { success: boolean; message: string; data: { CommandId: string } | null };
        if (!res.ok || !body.data) {
          phase.refused += 1;
          if (phase.refused === 1) console.warn(`  refused: ${String(res.status)} ${body.message}`);
          return;
        }
        const id = body.data.CommandId;
        const heard = early.get(id);
        if (heard !== undefined) {
          early.delete(id);
          phase.roundTrips.push(heard - t0);
        } else startedAt.set(id, t0);
      }),
    );
  });
  await Promise.all(inFlight);
  phase.missing = startedAt.size;
  startedAt.clear();
  early.clear();
  return phase;
}

// Warm-up (not counted): the first commands pay for compiling the code paths.
await runPhase('warm-up', 3);
const before = await usage(server.child.pid ?? 0);
const idle = await runPhase('idle');
console.log(`  ${summary(idle)}   (load ${load()})`);

// The fleet, in its own process: real MQTT connections, one message per device per interval from a random phase.
const fleetFile = path.join(dataDir, 'fleet.json');
await writeFile(fleetFile, JSON.stringify(fleetDevices));
const fleet = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bench/fleet-load.ts'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...process.env,
    FLEET_FILE: fleetFile,
    MQTT_URL: `mqtt://127.0.0.1:${String(server.mqttPort)}`,
    GROUP: String(groupId),
    POINTS: String(POINTS),
    INTERVAL_MS: String(INTERVAL_MS),
  },
});
const fleetLines: string[] = [];
fleet.stdout.on('data', (chunk: Buffer) => fleetLines.push(...chunk.toString().split('\n').filter(Boolean)));
while (!fleetLines.includes('ready')) await new Promise((r) => setTimeout(r, 200));
await new Promise((r) => setTimeout(r, INTERVAL_MS * 2));
const fleetStart = performance.now();
const loaded = await runPhase('loaded');
const fleetSeconds = (performance.now() - fleetStart) / 1000;
const fleetExit = new Promise((r) => fleet.once('exit', r));
fleet.kill('SIGTERM');
await fleetExit;
const fleetStats = JSON.parse(fleetLines.find((l) => l.startsWith('{')) ?? '{"published":0,"acknowledged":0}') as {
  published: number;
  acknowledged: number;
};
const after = await usage(server.child.pid ?? 0);
console.log(
  `  ${summary(loaded)}   (fleet ${(fleetStats.acknowledged / (fleetSeconds + INTERVAL_MS / 500)).toFixed(0)} messages/s acknowledged, ${String(fleetStats.published - fleetStats.acknowledged)} not; load ${load()})`,
);

viewer.end();
await device.endAsync(true);
await server.stop();
await rm(dataDir, { recursive: true, force: true });

for (const p of [ceiling, idle, loaded]) {
  if (!p) continue;
  if (p.missing > 0) failures.push(`${p.name}: ${String(p.missing)} commands unanswered`);
  if (p.refused > 0) failures.push(`${p.name}: ${String(p.refused)} commands refused`);
  if (p.roundTrips.length === 0) failures.push(`${p.name}: nothing measured`);
}
const p99 = (p: Phase) =>
  percentile(
    [...p.roundTrips].sort((a, b) => a - b),
    99,
  );
console.log(`
Control round trip (click → device → acknowledgement → console), SQLite:
  ceiling (bare broker) p99 ${ceiling ? ms(p99(ceiling)) : '—'}
  idle                  p99 ${ms(p99(idle))}
  with ${String(LOAD_DEVICES)} devices    p99 ${ms(p99(loaded))}   goal: under 100 ms
  server: ${(((after.cpuSeconds - before.cpuSeconds) / (2 * DURATION_S + 6)) * 100).toFixed(0)}% CPU (of one core) over both phases, peak RSS ${after.peakRssMb.toFixed(0)} MB; load ${load()}`);
if (failures.length > 0) {
  console.error(`FAILED: ${failures.join('; ')}`);
  process.exitCode = 1;
}
