/**
 * The memory of one server holding DEVICES connected devices (default 50,000) that publish every
 * INTERVAL seconds (10): the simulator's stations (apps/simulator's fleet, bench/sim-worker.ts,
 * PER_PROCESS devices a process, each process's connections leaving from an address of its own,
 * 127.0.0.2, .3, …) connect to the server's embedded broker on this machine and publish their
 * station's values (45 points, QoS 1, a random phase); devices have the demo station type
 * (defined points, alarms linked to data). SQLite, or PostgreSQL with BENCH_DATABASE_URL.
 *
 * Every SAMPLE seconds (15), from the connect until DURATION seconds (300) after the last device
 * connected (or CONNECT_WAIT seconds, 300, if they never all are): the server's RSS, its V8 heap
 * in use (the least of the second-by-second readings of bench/loop-probe.ts in the window: the
 * heap right after a collection) and its Buffers outside it; every GC_EVERY seconds (60) also
 * the live heap after a full collection the probe runs (the server is started with --expose-gc;
 * a full collection of a large heap stalls the server for seconds on a busy machine, hence not
 * at every sample; 0: never). Beside them the devices the broker holds, the points stored since
 * the last sample, what waits in the ingest queue, and the simulators' counts (connected,
 * disconnections, published, acknowledged: what is published and not acknowledged is what the
 * devices wait for). Reports the memory per connected device (against the server with none) and
 * whether memory grew over the steady part: the slope over its last two thirds.
 *
 * Beyond what the machine can store, devices are to be slowed (their messages acknowledged
 * late, their connections held unread) rather than dropped, with the ingest queue bounded
 * (INGEST_QUEUE_POINTS / INGEST_QUEUE_BYTES): the disconnections and acknowledgements say
 * whether they were.
 *
 * Limits of the machine, checked first: the server needs a file descriptor per device (the
 * benchmark raises its soft limit up to the hard limit, `ulimit -n`; it stops, saying so, when
 * the hard limit is below DEVICES + 1,000), and each simulator process one per device of its own;
 * one source address has ip_local_port_range's ports towards the broker.
 *
 *   npm run bench:connections                        # DEVICES=50000 INTERVAL=10 DURATION=300 SAMPLE=15
 *   DEVICES=2000 DURATION=120 npm run bench:connections
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { seedDemoDeviceTypes } from '../apps/server/src/seed/demo-device-types.ts';
import type { FleetStats } from '../apps/simulator/src/fleet.ts';
import { env, load, n, sleep } from './fleet-kit.ts';
import {
  ROOT,
  benchPgDatabase,
  fileLimits,
  forceGc,
  isLoopReport,
  prepare,
  startServer,
  withFileLimit,
  type HeapReport,
  type LoopReport,
  type RunningServer,
} from './live-server.ts';

const DEVICES = env('DEVICES', 50_000);
const INTERVAL_MS = env('INTERVAL', 10) * 1000;
const DURATION_S = env('DURATION', 300);
const SAMPLE_S = Math.max(5, env('SAMPLE', 15));
const GC_EVERY_S = env('GC_EVERY', 60);
const PER_PROCESS = Math.max(1, env('PER_PROCESS', 10_000));
/** How long the devices may take to connect. */
const CONNECT_WAIT_S = env('CONNECT_WAIT', 300);
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
/** Descriptors a process needs beyond one per connection (database, pipes, files, the HTTP side). */
const SPARE_FILES = 1000;

// The machine's limits, before anything starts.
const limits = await fileLimits();
const portRange = (await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')).trim().split(/\s+/).map(Number);
const portsPerAddress = (portRange[1] ?? 0) - (portRange[0] ?? 0) + 1;
const serverFiles = DEVICES + SPARE_FILES;
const simFiles = Math.min(DEVICES, PER_PROCESS) + SPARE_FILES;
console.log(
  `Connections: ${n(DEVICES)} devices, a station's values every ${String(INTERVAL_MS / 1000)} s (${n((DEVICES * 1000) / INTERVAL_MS)} messages/s offered), ${String(DURATION_S)} s once connected; open files: soft ${String(limits.soft)}, hard ${String(limits.hard)}; local ports ${String(portRange[0])}–${String(portRange[1])}; load ${load()}`,
);
if (limits.hard < serverFiles || limits.hard < simFiles) {
  console.error(
    `This machine lets a process open at most ${String(limits.hard)} files (the hard limit) and this user may not raise it: a server holding ${n(DEVICES)} devices needs ${n(serverFiles)}. ` +
      `Raise it (as root: ulimit -Hn ${String(serverFiles)} in the shell that runs this, or LimitNOFILE= in a systemd unit, or nofile in /etc/security/limits.conf), or run DEVICES=${String(Math.max(0, limits.hard - SPARE_FILES))} or fewer.`,
  );
  process.exit(1);
}
if (Math.min(DEVICES, PER_PROCESS) > portsPerAddress - 1000) {
  console.error(
    `PER_PROCESS (${String(PER_PROCESS)}) must stay below the ${String(portsPerAddress)} local ports of one address.`,
  );
  process.exit(1);
}

const pgDb = await benchPgDatabase();
const { dataDir, groupId, devices } = await prepare(DEVICES, pgDb?.url);
{
  // The demo station type: its points defined, alarms linked to data, as a real fleet has.
  const database = await openDatabase({ dataDir, databaseUrl: pgDb?.url });
  const { stationTypeId } = await seedDemoDeviceTypes(database.db, groupId);
  await database.db.updateTable('devices').set({ type_id: stationTypeId }).where('group_id', '=', groupId).execute();
  await database.close();
}

const server: RunningServer = await startServer(
  dataDir,
  { ...(pgDb ? { DATABASE_URL: pgDb.url } : {}), METRICS_TOKEN },
  { probe: true, nodeArgs: ['--expose-gc'], fileLimit: serverFiles },
);
const reports: LoopReport[] = [];
server.child.on('message', (m) => {
  if (isLoopReport(m)) reports.push(m);
});
async function metrics(): Promise<Record<string, number>> {
  const res = await fetch(`http://127.0.0.1:${String(server.port)}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(60_000),
  });
  const out: Record<string, number> = {};
  for (const line of (await res.text()).split('\n')) {
    const m = /^(sluice_[a-z_]+)(?:\{[^}]*\})? (\S+)$/.exec(line);
    if (m?.[1] && m[2]) out[m[1]] = (out[m[1]] ?? 0) + Number(m[2]);
  }
  return out;
}

interface Sample {
  seconds: number;
  rssMb: number;
  /** The least V8 heap in use the probe read in the window (right after a collection). */
  heapMb: number;
  externalMb: number;
  /** After a full collection the benchmark forced, on the samples that ran one. */
  live: HeapReport | undefined;
  /** What the last full collection in the window left, V8's own or forced (the probe reads it); NaN when none ran. */
  v8LiveMb: number;
  connected: number;
  /** The server's longest event-loop stall in the window, and the simulators'. */
  stallMs: number;
  simStallMs: number;
  storedPerSecond: number;
  queuePoints: number;
  waitingMessages: number;
  sim: FleetStats;
}

const baseline = await forceGc(server.child);
if (!baseline?.collected) throw new Error('the server was not started with --expose-gc: the live heap cannot be read');
console.log(`  server with no device: RSS ${n(baseline.rssMb)} MB, live heap ${n(baseline.heapMb)} MB`);

// The simulators, one process per PER_PROCESS devices, each from its own source address.
const workers: { child: ChildProcess; stats: FleetStats | undefined; stallMs: number }[] = [];
for (let i = 0, p = 0; i < devices.length; i += PER_PROCESS, p++) {
  const file = path.join(dataDir, `fleet-${String(p)}.json`);
  await writeFile(file, JSON.stringify(devices.slice(i, i + PER_PROCESS)));
  const [command, args] = withFileLimit(simFiles, process.execPath, [
    '--disable-warning=ExperimentalWarning',
    'bench/sim-worker.ts',
  ]);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      FLEET_FILE: file,
      GROUP: String(groupId),
      MQTT_URL: `mqtt://127.0.0.1:${String(server.mqttPort)}`,
      INTERVAL_MS: String(INTERVAL_MS),
      LOCAL_ADDRESS: `127.0.0.${String(2 + p)}`,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const worker = { child, stats: undefined as FleetStats | undefined, stallMs: 0 };
  child.on('message', (m: { stats?: FleetStats; stallMs?: number }) => {
    if (m.stats) worker.stats = m.stats;
    worker.stallMs = Math.max(worker.stallMs, m.stallMs ?? 0);
  });
  workers.push(worker);
}
const simTotals = (): FleetStats => {
  const total: FleetStats = { connected: 0, published: 0, acknowledged: 0, failed: 0, commands: 0, points: 0, disconnects: 0 };
  for (const w of workers) for (const key of Object.keys(total) as (keyof FleetStats)[]) total[key] += w.stats?.[key] ?? 0;
  return total;
};

const started = Date.now();
const samples: Sample[] = [];
let lastStored = (await metrics()).sluice_ingest_points_total ?? 0;
let lastAt = Date.now();
let lastGc = Date.now();
/** When every device was held (or CONNECT_WAIT ran out); 0 until then. */
let allConnectedAt = 0;
const print = (s: Sample) => {
  const waiting = s.sim.published - s.sim.acknowledged - s.sim.failed;
  console.log(
    `  ${s.seconds.toFixed(0).padStart(5)} s: ${n(s.connected).padStart(6)} held; RSS ${n(s.rssMb).padStart(5)} MB, heap ${n(s.heapMb).padStart(4)} MB${!s.live && !Number.isNaN(s.v8LiveMb) ? ` (live ${n(s.v8LiveMb)} MB after V8's last full collection)` : ''}${s.live ? ` (live after a full GC ${n(s.live.heapMb)} MB, the GC took ${n(s.live.gcMs)} ms)` : ''}, Buffers ${n(s.externalMb)} MB; ` +
      `${n(s.storedPerSecond)} points/s stored, queue ${n(s.queuePoints)} points; longest stall ${n(s.stallMs)} ms (simulators ${n(s.simStallMs)} ms); ` +
      `simulators ${n(s.sim.connected)} connected, ${n(s.sim.disconnects)} disconnections, ${n(s.sim.published)} published, ${n(waiting)} waiting for their PUBACK`,
  );
};
for (;;) {
  await sleep(SAMPLE_S * 1000);
  const live = GC_EVERY_S > 0 && Date.now() - lastGc >= GC_EVERY_S * 1000 ? await forceGc(server.child) : undefined;
  if (live) lastGc = Date.now();
  const m = await metrics();
  const now = Date.now();
  const window = reports.filter((r) => r.at > lastAt);
  const stored = m.sluice_ingest_points_total ?? 0;
  const sample: Sample = {
    seconds: (now - started) / 1000,
    rssMb: window.at(-1)?.rssMb ?? NaN,
    heapMb: Math.min(...window.map((r) => r.heapMb)),
    v8LiveMb: window.filter((r) => r.liveHeapMb !== undefined).at(-1)?.liveHeapMb ?? NaN,
    externalMb: window.at(-1)?.externalMb ?? NaN,
    live,
    connected: m.sluice_mqtt_connected_devices ?? 0,
    stallMs: Math.max(0, ...window.map((r) => r.stallMs)),
    simStallMs: Math.max(0, ...workers.map((w) => w.stallMs)),
    storedPerSecond: (stored - lastStored) / ((now - lastAt) / 1000),
    queuePoints: m.sluice_ingest_queue_points ?? 0,
    waitingMessages: m.sluice_ingest_waiting_messages ?? 0,
    sim: simTotals(),
  };
  lastStored = stored;
  lastAt = now;
  for (const w of workers) w.stallMs = 0;
  samples.push(sample);
  print(sample);
  if (allConnectedAt === 0 && sample.connected >= DEVICES) {
    allConnectedAt = now;
    console.log(`  all ${n(DEVICES)} devices held after ${sample.seconds.toFixed(0)} s; sampling ${String(DURATION_S)} s more`);
  }
  if (allConnectedAt === 0 && now - started > CONNECT_WAIT_S * 1000) {
    console.log(
      `  only ${n(sample.connected)} of ${n(DEVICES)} devices held after ${String(CONNECT_WAIT_S)} s; sampling ${String(DURATION_S)} s more`,
    );
    allConnectedAt = now;
  }
  if (allConnectedAt > 0 && now - allConnectedAt >= DURATION_S * 1000) break;
}

for (const w of workers) w.child.kill('SIGTERM');
await Promise.all(
  workers.map(
    (w) =>
      new Promise((resolve) => {
        if (w.child.exitCode !== null) {
          resolve(null);
          return;
        }
        w.child.once('exit', resolve);
        setTimeout(() => w.child.kill('SIGKILL'), 20_000).unref();
      }),
  ),
);
await server.stop();
await pgDb?.drop();
await rm(dataDir, { recursive: true, force: true });

/** Least-squares slope of y over x. */
const slope = (points: [number, number][]) => {
  const mx = points.reduce((s, [x]) => s + x, 0) / points.length;
  const my = points.reduce((s, [, y]) => s + y, 0) / points.length;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
};
const steady = samples.filter((s) => started + s.seconds * 1000 >= allConnectedAt);
const tail = steady.slice(Math.floor(steady.length / 3));
const gcd = tail.filter((s) => s.live !== undefined);
const ownGcs = tail.filter((s) => !Number.isNaN(s.v8LiveMb));
const held = Math.min(...tail.map((s) => s.connected));
const meanOf = (xs: Sample[], f: (s: Sample) => number) => xs.reduce((sum, s) => sum + f(s), 0) / Math.max(1, xs.length);
const perMinute = (xs: Sample[], f: (s: Sample) => number) =>
  xs.length < 2 ? NaN : slope(xs.map((s) => [s.seconds / 60, f(s)]));
const liveMb = (s: Sample) => s.live?.heapMb ?? NaN;
const last = samples.at(-1);
const kb = (mb: number, base: number) => (((mb - base) * 1024) / Math.max(1, held)).toFixed(1);
console.log(`
Connections, ${pgDb ? 'PostgreSQL' : 'SQLite'}: ${n(DEVICES)} devices every ${String(INTERVAL_MS / 1000)} s, ${String(workers.length)} simulator processes; load ${load()} at the end
  held:          at least ${n(held)} devices over the last two thirds of the steady part (${String(tail.length)} samples); simulators: ${n(last?.sim.disconnects ?? 0)} disconnections in the whole run, ${n(last?.sim.failed ?? 0)} publishes failed
  stalls:        the server's longest ${n(Math.max(...samples.map((s) => s.stallMs)))} ms, the simulators' ${n(Math.max(...samples.map((s) => s.simStallMs)))} ms in the whole run
  memory:        with no device RSS ${n(baseline.rssMb)} MB, live heap ${n(baseline.heapMb)} MB; holding them (mean of those samples) RSS ${n(meanOf(tail, (s) => s.rssMb))} MB, heap in use ${n(meanOf(tail, (s) => s.heapMb))} MB${gcd.length > 0 ? `, live heap after a full GC ${n(meanOf(gcd, liveMb))} MB (${String(gcd.length)} of them)` : ''}, Buffers ${n(meanOf(tail, (s) => s.externalMb))} MB
  per device:    ${kb(
    meanOf(tail, (s) => s.rssMb),
    baseline.rssMb,
  )} KB of RSS, ${
    gcd.length > 0
      ? `${kb(meanOf(gcd, liveMb), baseline.heapMb)} KB of live heap`
      : `${kb(
          meanOf(tail, (s) => s.heapMb),
          baseline.heapMb,
        )} KB of heap in use (no full GC ran: GC_EVERY=0)`
  }, against the server with none
  trend:         RSS ${perMinute(tail, (s) => s.rssMb).toFixed(1)} MB/min, heap in use ${perMinute(tail, (s) => s.heapMb).toFixed(1)} MB/min, ${gcd.length > 1 ? `live heap ${perMinute(gcd, liveMb).toFixed(1)} MB/min, ` : ''}Buffers ${perMinute(tail, (s) => s.externalMb).toFixed(1)} MB/min over those samples
  full GCs:      live heap ${n(meanOf(ownGcs, (s) => s.v8LiveMb))} MB on average after the full collections, V8's own or forced (${String(ownGcs.length)} samples with one), ${perMinute(ownGcs, (s) => s.v8LiveMb).toFixed(1)} MB/min
  ingest:        ${n(meanOf(tail, (s) => s.storedPerSecond))} points/s stored (mean of those samples; offered about ${n((DEVICES * 45 * 1000) / INTERVAL_MS)}); ingest queue at most ${n(Math.max(...tail.map((s) => s.queuePoints)))} points, at most ${n(Math.max(...tail.map((s) => s.waitingMessages)))} messages waiting for room
  devices:       ${n(last?.sim.published ?? 0)} messages published, ${n(last?.sim.acknowledged ?? 0)} acknowledged by the end, ${n((last?.sim.published ?? 0) - (last?.sim.acknowledged ?? 0) - (last?.sim.failed ?? 0))} waiting for their PUBACK`);
