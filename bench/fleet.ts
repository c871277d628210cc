/**
 * Fleet-shaped ingest: DEVICES devices (default 10,000), each a real MQTT connection over TCP,
 * publish one QoS 1 data message of POINTS points (default 50) every INTERVAL seconds (default
 * 10) with a random phase and the current time, for DURATION seconds (at least 60) — the
 * traffic a real fleet sends, one point per series per batch — into the real server (its own
 * process; SQLite, or PostgreSQL with BENCH_DATABASE_URL).
 *
 * Reports points/s stored, PUBACK p50/p99/max, the p50/p99/max of a light authenticated API
 * call (GET /api/user/myinfo, one after the other, five a second) made during the run, the
 * server's longest event-loop stall (measured inside it by bench/loop-probe.ts), its RSS, and
 * whether stored = acknowledged. In the same run, the ceilings: the bare broker (Aedes with no
 * hooks, same fleet, CEILING seconds) and bare database writes (the server's write repository
 * committing fleet-shaped batches in this process, CEILING / 2 seconds).
 *
 * Fails (exit 1) when messages are still in flight DRAIN seconds after the run, devices were
 * refused or disconnected, or stored ≠ acknowledged: then it did not measure what it says.
 *
 *   npm run bench:fleet                        # DEVICES=10000 POINTS=50 INTERVAL=10 DURATION=60
 *   BENCH_DATABASE_URL=postgres://… npm run bench:fleet
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { openSqliteConnection } from '../apps/server/src/db/node-sqlite-dialect.ts';
import { SqliteWriteStatements } from '../apps/server/src/modules/telemetry/sqlite-write.statements.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';
import {
  ROOT,
  benchPgDatabase,
  isLoopReport,
  login,
  percentile,
  prepare,
  startServer,
  usage,
  type BenchDevice,
  type LoopReport,
} from './live-server.ts';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};
const DEVICES = env('DEVICES', 10_000);
const POINTS = env('POINTS', 50);
const INTERVAL_MS = env('INTERVAL', 10) * 1000;
const DURATION_S = env('DURATION', 60);
/** Devices connecting per second before the run. */
const CONNECT_RATE = env('CONNECT_RATE', 1000);
/** How long the messages in flight at the end may take to be acknowledged. */
const DRAIN_S = env('DRAIN', 60);
/** Seconds of the bare broker's run (the bare database gets half); 0 skips the ceilings. */
const CEILING_S = env('CEILING', 20);
const HTTP_EVERY_MS = 200;
if (DURATION_S < 60 && process.env.ALLOW_SHORT !== '1')
  throw new Error('DURATION must be at least 60 s (ALLOW_SHORT=1 to try the benchmark out)');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US')} ms` : '–');
const n = (v: number) => Math.round(v).toLocaleString('en-US');
const keys = Array.from({ length: POINTS }, (_, i) => `P${String(i).padStart(2, '0')}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** This process's own event loop: a late load generator inflates the latencies it measures. */
const ownLoop = monitorEventLoopDelay({ resolution: 10 });
ownLoop.enable();

interface Fleet {
  clients: MqttClient[];
  refused: number;
  connectSeconds: number;
}

/** Connects the devices at CONNECT_RATE per second. */
async function connectFleet(url: string, devices: BenchDevice[]): Promise<Fleet> {
  const started = performance.now();
  const clients: MqttClient[] = [];
  let refused = 0;
  const step = Math.max(1, Math.round(CONNECT_RATE / 10));
  for (let i = 0; i < devices.length; i += step) {
    const t0 = performance.now();
    const settled = await Promise.allSettled(
      devices.slice(i, i + step).map((d) =>
        mqtt.connectAsync(url, {
          clientId: d.sn,
          username: d.sn,
          password: d.secret,
          protocolVersion: 4,
          reconnectPeriod: 0,
          keepalive: 60,
          connectTimeout: 60_000,
        }),
      ),
    );
    for (const s of settled) {
      if (s.status === 'fulfilled') {
        s.value.on('error', () => undefined);
        clients.push(s.value);
      } else refused += 1;
    }
    const wait = 100 - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
  }
  return { clients, refused, connectSeconds: (performance.now() - started) / 1000 };
}

interface FleetRun {
  seconds: number;
  sent: number;
  acked: number;
  failed: number;
  inFlight: number;
  /** Messages acknowledged by the end of the run (not counting the drain). */
  ackedInRun: number;
  disconnected: number;
  pubacks: number[];
  /** Points acknowledged in each second of the run. */
  perSecond: number[];
  startedAt: number;
  endedAt: number;
  drainedAt: number;
}

/** Each device publishes every INTERVAL_MS from a random phase, for `seconds`; then waits for what is in flight. */
async function runFleet(fleet: Fleet, topicOf: (i: number) => string, seconds: number): Promise<FleetRun> {
  const run: FleetRun = {
    seconds,
    sent: 0,
    acked: 0,
    failed: 0,
    inFlight: 0,
    ackedInRun: 0,
    disconnected: 0,
    pubacks: [],
    perSecond: [],
    startedAt: Date.now(),
    endedAt: 0,
    drainedAt: 0,
  };
  let running = true;
  const timers: NodeJS.Timeout[] = [];
  for (const [i, client] of fleet.clients.entries()) {
    client.once('close', () => {
      if (running || run.sent > run.acked + run.failed) run.disconnected += 1;
    });
    const topic = topicOf(i);
    const publish = () => {
      if (!running || !client.connected) return;
      const values: Record<string, number> = { Time: Date.now() };
      for (const key of keys) values[key] = Math.round(Math.random() * 10_000) / 100;
      const t0 = performance.now();
      run.sent += 1;
      client.publish(topic, JSON.stringify(values), { qos: 1 }, (error) => {
        if (error) run.failed += 1;
        else {
          run.acked += 1;
          run.pubacks.push(performance.now() - t0);
        }
      });
    };
    timers.push(
      setTimeout(() => {
        if (!running) return;
        publish();
        timers.push(setInterval(publish, INTERVAL_MS));
      }, Math.random() * INTERVAL_MS),
    );
  }
  let last = 0;
  const ticker = setInterval(() => {
    run.perSecond.push((run.acked - last) * POINTS);
    last = run.acked;
  }, 1000);
  await sleep(seconds * 1000);
  running = false;
  run.endedAt = Date.now();
  run.ackedInRun = run.acked;
  clearInterval(ticker);
  for (const t of timers) clearTimeout(t);
  for (let i = 0; i < DRAIN_S * 10 && run.acked + run.failed < run.sent; i++) await sleep(100);
  run.drainedAt = Date.now();
  run.inFlight = run.sent - run.acked - run.failed;
  // What comes later is not counted.
  return { ...run, pubacks: [...run.pubacks] };
}

async function closeFleet(fleet: Fleet): Promise<void> {
  await Promise.all(fleet.clients.map((c) => c.endAsync(true).catch(() => undefined)));
}

/**
 * The longest stall the probe reported that overlapped a time span (a stall is reported when
 * it ends, so reports are read until the process stops), and how many stalls passed 200 ms.
 */
function loopBetween(reports: LoopReport[], from: number, to: number) {
  const within = reports.filter((r) => r.at >= from && r.at - r.stallMs <= to);
  return {
    stallMs: Math.max(0, ...within.map((r) => r.stallMs)),
    over200: within.filter((r) => r.stallMs > 200).length,
  };
}

function pubackLine(run: FleetRun): string {
  const sorted = [...run.pubacks].sort((a, b) => a - b);
  return `PUBACK p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`;
}

const failures: string[] = [];
const pgDb = await benchPgDatabase();
const dbName = pgDb ? 'PostgreSQL' : 'SQLite';
console.log(
  `Fleet: ${n(DEVICES)} devices × ${String(POINTS)} points every ${String(INTERVAL_MS / 1000)} s (${n((DEVICES * POINTS * 1000) / INTERVAL_MS)} points/s offered), ${String(DURATION_S)} s, ${dbName}; load ${load()}`,
);
const { dataDir, groupId, devices } = await prepare(DEVICES, pgDb?.url);

// Ceiling 1: the bare broker, same fleet, same machine, before the server starts.
let bare: { run: FleetRun; stallMs: number } | undefined;
if (CEILING_S > 0) {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--import', './bench/loop-probe.ts', 'bench/bare-broker.ts'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const reports: LoopReport[] = [];
  child.on('message', (m) => {
    if (isLoopReport(m)) reports.push(m);
  });
  const port = await new Promise<number>((resolve) => {
    child.stdout?.once('data', (chunk: Buffer) => {
      resolve(Number(chunk.toString().trim()));
    });
  });
  const fleet = await connectFleet(`mqtt://127.0.0.1:${String(port)}`, devices);
  const run = await runFleet(fleet, (i) => `bare/${devices[i]?.sn ?? ''}/data`, CEILING_S);
  await closeFleet(fleet);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  bare = { run, stallMs: loopBetween(reports, run.startedAt, run.drainedAt).stallMs };
  console.log(
    `  bare broker (${String(CEILING_S)} s): ${n((run.acked * POINTS) / CEILING_S)} points/s acknowledged, ${pubackLine(run)}, longest stall ${ms(bare.stallMs)}`,
  );
}

// The server.
const server = await startServer(dataDir, pgDb ? { DATABASE_URL: pgDb.url } : {}, { probe: true });
const reports: LoopReport[] = [];
server.child.on('message', (m) => {
  if (isLoopReport(m)) reports.push(m);
});
const token = await login(server.port);
const api = (route: string) =>
  fetch(`http://127.0.0.1:${String(server.port)}/api${route}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(180_000),
  });
const fleet = await connectFleet(`mqtt://127.0.0.1:${String(server.mqttPort)}`, devices);
console.log(
  `  ${n(fleet.clients.length)} devices connected in ${fleet.connectSeconds.toFixed(1)} s${fleet.refused > 0 ? `, ${n(fleet.refused)} REFUSED` : ''}; running ${String(DURATION_S)} s…`,
);
if (fleet.refused > 0) failures.push(`${String(fleet.refused)} devices could not connect`);

// A light authenticated API call, one after the other, during the run.
const http: number[] = [];
let httpFailed = 0;
const httpState = { running: true };
const httpLoop = (async () => {
  while (httpState.running) {
    const t0 = performance.now();
    try {
      const res = await api('/user/myinfo');
      await res.arrayBuffer();
      if (res.status !== 200) httpFailed += 1;
    } catch {
      httpFailed += 1;
    }
    const took = performance.now() - t0;
    http.push(took);
    await sleep(Math.max(0, HTTP_EVERY_MS - took));
  }
})();
const rss: number[] = [];
const pid = server.child.pid ?? 0;
const rssTimer = setInterval(() => {
  usage(pid).then(
    (u) => rss.push(u.rssMb),
    () => undefined,
  );
}, 1000);
const cpuBefore = await usage(pid);
ownLoop.reset();
const run = await runFleet(fleet, (i) => `sluice/${String(groupId)}/${devices[i]?.sn ?? ''}/data`, DURATION_S);
httpState.running = false;
await httpLoop;
clearInterval(rssTimer);
const cpuAfter = await usage(pid);
const ownStallMs = ownLoop.max / 1e6;
const writer = (
  (await (await api('/Mqtt/Stats')).json()) as {
    data: { Writer: { batches: number; messages: number } };
  }
).data.Writer;
await closeFleet(fleet);
await server.stop();
const loop = loopBetween(reports, run.startedAt, run.drainedAt);
const during = reports.filter((r) => r.at >= run.startedAt && r.at <= run.endedAt);
const heap = during.map((r) => r.heapMb);
const external = during.map((r) => r.externalMb ?? NaN);

const countStored = async (): Promise<number> => {
  if (pgDb) {
    const client = new pg.Client({ connectionString: pgDb.url });
    await client.connect();
    const stored = Number((await client.query<{ n: string }>('select count(*) as n from telemetry_raw')).rows[0]?.n ?? 0);
    await client.end();
    return stored;
  }
  const db = new DatabaseSync(path.join(dataDir, 'sluice.db'), { readOnly: true });
  const stored = (db.prepare('select count(*) as n from telemetry_raw').get() as { n: number }).n;
  db.close();
  return stored;
};
const stored = await countStored();
const ackedPoints = run.acked * POINTS;
if (run.inFlight > 0) failures.push(`${n(run.inFlight)} messages still in flight ${String(DRAIN_S)} s after the run`);
if (run.failed > 0) failures.push(`${n(run.failed)} publishes failed`);
if (run.disconnected > 0) failures.push(`${n(run.disconnected)} devices were disconnected`);
if (stored !== ackedPoints) failures.push(`stored ${n(stored)} ≠ acknowledged ${n(ackedPoints)} points`);

// Ceiling 2: bare database writes, fleet-shaped batches (one point per series), the server's batch size.
let bareDb: { pointsPerSecond: number; perCpuSecond: number; batchMessages: number } | undefined;
if (CEILING_S > 0) {
  const database = await openDatabase({ dataDir, databaseUrl: pgDb?.url });
  // The server's own statements: on SQLite those of its writer's thread, on a connection of their own.
  const native = pgDb ? undefined : openSqliteConnection(path.join(dataDir, 'sluice.db'));
  const repository = new TelemetryWriteRepository(
    native ? new SqliteWriteStatements(native) : database.db,
    database.dialect,
    480,
  );
  const batchMessages = Math.max(1, Math.min(DEVICES, Math.round(writer.messages / Math.max(1, writer.batches))));
  let ts = Date.now() + 86_400_000;
  let next = 0;
  let points = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < (CEILING_S / 2) * 1000) {
    const batch: BatchPoint[] = [];
    for (let m = 0; m < batchMessages; m++) {
      const sn = devices[next]?.sn ?? '';
      for (const key of keys) batch.push({ groupId, deviceSn: sn, key, defined: false, ts, num: Math.random() * 100, txt: null });
      next += 1;
      if (next === devices.length) {
        next = 0;
        ts += INTERVAL_MS;
      }
    }
    await repository.commit(batch, []);
    points += batch.length;
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  native?.close();
  await database.close();
  bareDb = { pointsPerSecond: points / wall, perCpuSecond: points / ((cpu.user + cpu.system) / 1e6), batchMessages };
}

await pgDb?.drop();
await rm(dataDir, { recursive: true, force: true });

const elapsed = (run.endedAt - run.startedAt) / 1000;
const steady = run.perSecond.slice(Math.ceil(INTERVAL_MS / 1000));
const httpSorted = [...http].sort((a, b) => a - b);
const rssFirst = rss.slice(0, 10);
const rssLast = rss.slice(-10);
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
console.log(`
Fleet ingest, ${dbName}: ${n(DEVICES)} devices × ${String(POINTS)} points / ${String(INTERVAL_MS / 1000)} s, QoS 1, ${elapsed.toFixed(1)} s; load ${load()} at the end
  stored:        ${n((run.ackedInRun * POINTS) / elapsed)} points/s acknowledged during the run (offered ${n((DEVICES * POINTS * 1000) / INTERVAL_MS)}); after the first interval median ${n(
    percentile(
      [...steady].sort((a, b) => a - b),
      50,
    ),
  )}, min ${n(Math.min(...steady))} per second
  messages:      sent ${n(run.sent)}, acknowledged ${n(run.acked)}, failed ${n(run.failed)}, in flight at the end ${n(run.inFlight)}; disconnected ${n(run.disconnected)}
  stored = ack:  ${stored === ackedPoints ? 'yes' : 'NO'} (${n(stored)} stored, ${n(ackedPoints)} acknowledged points)
  MQTT:          ${pubackLine(run)}
  HTTP:          GET /api/user/myinfo ×${String(http.length)}: p50 ${ms(percentile(httpSorted, 50))}, p99 ${ms(percentile(httpSorted, 99))}, max ${ms(httpSorted.at(-1) ?? NaN)}, ${String(httpFailed)} failed or not 200
  event loop:    longest stall ${ms(loop.stallMs)} (${String(loop.over200)} stalls over 200 ms); this load generator's own longest ${ms(ownStallMs)}
  server:        ${(((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) / elapsed) * 100).toFixed(0)}% CPU (of one core), RSS first 10 s ${n(avg(rssFirst))} MB, last 10 s ${n(avg(rssLast))} MB, peak ${n(Math.max(...rss))} MB (V8 heap in use ${n(heap[0] ?? NaN)} → ${n(heap.at(-1) ?? NaN)} MB, Buffers outside it ${n(external[0] ?? NaN)} → ${n(external.at(-1) ?? NaN)} MB); ${String(writer.batches)} commits of ${(writer.messages / Math.max(1, writer.batches)).toFixed(1)} messages on average`);
if (bare)
  console.log(
    `  ceiling:       bare broker ${n((bare.run.acked * POINTS) / bare.run.seconds)} points/s, ${pubackLine(bare.run)}, longest stall ${ms(bare.stallMs)}`,
  );
if (bareDb)
  console.log(
    `                 bare database writes ${n(bareDb.pointsPerSecond)} points/s (${n(bareDb.perCpuSecond)} per CPU-second of this process) in batches of ${String(bareDb.batchMessages)} messages`,
  );
if (failures.length > 0) {
  console.log(`\nFAILED: ${failures.join('; ')}`);
  process.exit(1);
}
process.exit(0);
