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
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  bareDatabaseLine,
  bareDatabaseWrites,
  closeFleet,
  connectFleet,
  countStored,
  env,
  fleetFailures,
  fleetShape,
  httpLine,
  load,
  loopBetween,
  ms,
  n,
  offered,
  probeApi,
  pubackLine,
  rssLine,
  runFleet,
  sampleRss,
  storedLine,
  type FleetRun,
} from './fleet-kit.ts';
import { ROOT, benchPgDatabase, isLoopReport, login, prepare, startServer, usage, type LoopReport } from './live-server.ts';

const shape = fleetShape({ devices: 10_000 });
const { devices: DEVICES, points: POINTS, intervalMs: INTERVAL_MS, durationS: DURATION_S } = shape;
/** Seconds of the bare broker's run (the bare database gets half); 0 skips the ceilings. */
const CEILING_S = env('CEILING', 20);

/** This process's own event loop: a late load generator inflates the latencies it measures. */
const ownLoop = monitorEventLoopDelay({ resolution: 10 });
ownLoop.enable();

const failures: string[] = [];
const pgDb = await benchPgDatabase();
const dbName = pgDb ? 'PostgreSQL' : 'SQLite';
console.log(
  `Fleet: ${n(DEVICES)} devices × ${String(POINTS)} points every ${String(INTERVAL_MS / 1000)} s (${n(offered(shape))} points/s offered), ${String(DURATION_S)} s, ${dbName}; load ${load()}`,
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
  const fleet = await connectFleet(`mqtt://127.0.0.1:${String(port)}`, devices, shape);
  const run = await runFleet(fleet, (i) => `bare/${devices[i]?.sn ?? ''}/data`, CEILING_S, shape);
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
const fleet = await connectFleet(`mqtt://127.0.0.1:${String(server.mqttPort)}`, devices, shape);
console.log(
  `  ${n(fleet.clients.length)} devices connected in ${fleet.connectSeconds.toFixed(1)} s${fleet.refused > 0 ? `, ${n(fleet.refused)} REFUSED` : ''}; running ${String(DURATION_S)} s…`,
);

const probe = probeApi(server.port, token);
const pid = server.child.pid ?? 0;
const rss = sampleRss(pid);
const cpuBefore = await usage(pid);
ownLoop.reset();
const run = await runFleet(fleet, (i) => `sluice/${String(groupId)}/${devices[i]?.sn ?? ''}/data`, DURATION_S, shape);
const http = await probe.stop();
rss.stop();
const cpuAfter = await usage(pid);
const ownStallMs = ownLoop.max / 1e6;
const writer = (
  (await (
    await fetch(`http://127.0.0.1:${String(server.port)}/api/Mqtt/Stats`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    data: { Writer: { batches: number; messages: number } };
  }
).data.Writer;
await closeFleet(fleet);
await server.stop();
const loop = loopBetween(reports, run.startedAt, run.drainedAt);
const during = reports.filter((r) => r.at >= run.startedAt && r.at <= run.endedAt);
const heap = during.map((r) => r.heapMb);
const external = during.map((r) => r.externalMb ?? NaN);

const stored = await countStored({ pgUrl: pgDb?.url, dataDir });
const ackedPoints = run.acked * POINTS;
failures.push(...fleetFailures(run, fleet, stored, shape));

// Ceiling 2: bare database writes, fleet-shaped batches (one point per series), the server's batch size.
const bareDb =
  CEILING_S > 0
    ? await bareDatabaseWrites({
        dataDir,
        pgUrl: pgDb?.url,
        groupId,
        devices,
        batchMessages: Math.round(writer.messages / Math.max(1, writer.batches)),
        seconds: CEILING_S / 2,
        shape,
      })
    : undefined;

await pgDb?.drop();
await rm(dataDir, { recursive: true, force: true });

const elapsed = (run.endedAt - run.startedAt) / 1000;
console.log(`
Fleet ingest, ${dbName}: ${n(DEVICES)} devices × ${String(POINTS)} points / ${String(INTERVAL_MS / 1000)} s, QoS 1, ${elapsed.toFixed(1)} s; load ${load()} at the end
  stored:        ${storedLine(run, shape)}
  messages:      sent ${n(run.sent)}, acknowledged ${n(run.acked)}, failed ${n(run.failed)}, in flight at the end ${n(run.inFlight)}; disconnected ${n(run.disconnected)}
  stored = ack:  ${stored === ackedPoints ? 'yes' : 'NO'} (${n(stored)} stored, ${n(ackedPoints)} acknowledged points)
  MQTT:          ${pubackLine(run)}
  HTTP:          ${httpLine(http)}
  event loop:    longest stall ${ms(loop.stallMs)} (${String(loop.over200)} stalls over 200 ms); this load generator's own longest ${ms(ownStallMs)}
  server:        ${(((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) / elapsed) * 100).toFixed(0)}% CPU (of one core), ${rssLine(rss.samples)} (V8 heap in use ${n(heap[0] ?? NaN)} → ${n(heap.at(-1) ?? NaN)} MB, Buffers outside it ${n(external[0] ?? NaN)} → ${n(external.at(-1) ?? NaN)} MB); ${String(writer.batches)} commits of ${(writer.messages / Math.max(1, writer.batches)).toFixed(1)} messages on average`);
if (bare)
  console.log(
    `  ceiling:       bare broker ${n((bare.run.acked * POINTS) / bare.run.seconds)} points/s, ${pubackLine(bare.run)}, longest stall ${ms(bare.stallMs)}`,
  );
if (bareDb) console.log(`                 ${bareDatabaseLine(bareDb)}`);
if (failures.length > 0) {
  console.log(`\nFAILED: ${failures.join('; ')}`);
  process.exit(1);
}
process.exit(0);
