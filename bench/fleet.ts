/**
 * Fleet-shaped ingest: DEVICES devices (default 10,000), each a real MQTT connection over TCP,
 * publish one QoS 1 data message of POINTS points (default 50) every INTERVAL seconds (default
 * 10) with a random phase and the current time, for DURATION seconds (at least 60) — the
 * traffic a real fleet sends, one point per series per batch — into the real server (its own
 * process; SQLite, or PostgreSQL with BENCH_DATABASE_URL).
 *
 * Reports points/s stored, PUBACK p50/p99/max, the p50/p99/max of a light authenticated API
 * call (GET /api/user/myinfo, one after the other, five a second) made during the run, the
 * latency of live data to a console watching every device (bench/console-viewer.ts: the
 * console's own live client over WebSocket, its own process; CONSOLE=0 leaves it out), the
 * server's longest event-loop stall (measured inside it by bench/loop-probe.ts), its memory, and
 * whether stored = acknowledged. In the same run, the ceilings: the bare broker (Aedes with no
 * hooks, same fleet and console, CEILING seconds) and bare database writes (the server's write
 * repository committing fleet-shaped batches in this process, CEILING / 2 seconds).
 *
 * What is measured is a window of DURATION seconds in the middle of the fleet's traffic, and
 * nothing the benchmark does to read memory falls in it. The fleet starts publishing with a
 * warm-up: once the working set has formed (WARMUP seconds: every device has sent twice and the
 * server's 60 s caches have been loaded again once, 70 s by default) the probe forces a full
 * collection to read the live heap — a stall of a few hundred ms, which the server then catches
 * up on for SETTLE seconds (5) — and only then does the window open. (Read 20 s in, the working
 * set looked 10–12 MB smaller than it is — a step between 60 and 86 s of traffic, then flat to
 * 175 s; likely the 60 s caches reloaded, e.g. each device's series keys read back from the
 * database as strings of their own where the first load had the messages'. The memory check
 * took that step for growth.) PUBACK times, the console's
 * latencies and the API calls count for the messages sent and the calls made in the window (the
 * console reports by the time a device stamped in its message), the server's CPU, commits and
 * stalls are read over it. When it closes the fleet keeps publishing until every message sent in
 * it is acknowledged, then the end's live heap is read (the queues as the run had them), then
 * the devices stop and the drain's. (Until 2026-11-29 the working set's collection ran 20 s into
 * the measured minute: PUBACK p99 and the console's were 113–146 ms with it, 87–92 ms in a run
 * without it.)
 *
 * Memory: the live heap (main thread and worker threads, after a full collection the probe
 * forces) before the fleet connects, once it is connected, once every device has sent (the
 * working set: a device's is the difference ÷ devices), after the window and after the
 * drain; during the run the main thread's live heap after V8's own full collections, RSS, the
 * memory V8's heaps hold, ArrayBuffers, with slopes over the second half of the run; the
 * collections and their pauses; the writer's and the broker backlog's peaks.
 *
 * Fails (exit 1) when messages are still in flight DRAIN seconds after the run, devices were
 * refused or disconnected, or stored ≠ acknowledged: then it did not measure what it says; and
 * when memory still grows once the working set has formed (see judgeMemory in memory-trend.ts:
 * between the working set's reading and the end's, the live heap's highest in the second half above the first half's, or the live
 * heap after the drain above the working set, by more than max(MEMORY_GROWTH_MB 10,
 * MEMORY_GROWTH_PERCENT 10 % of the working set)).
 *
 *   npm run bench:fleet                        # DEVICES=10000 POINTS=50 INTERVAL=10 DURATION=60
 *   BENCH_DATABASE_URL=postgres://… npm run bench:fleet
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { heapsLine, judgeMemory, memoryTrend, totalLive, type Trend } from './memory-trend.ts';
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
  sleep,
  storedLine,
  type FleetRun,
} from './fleet-kit.ts';
import {
  ROOT,
  benchPgDatabase,
  forceGc,
  isLoopReport,
  login,
  prepare,
  startServer,
  usage,
  type LoopReport,
} from './live-server.ts';

const shape = fleetShape({ devices: 10_000 });
const { devices: DEVICES, points: POINTS, intervalMs: INTERVAL_MS, durationS: DURATION_S } = shape;
/** Seconds of the bare broker's run (the bare database gets half); 0 skips the ceilings. */
const CEILING_S = env('CEILING', 20);
/** Whether a console watches every device's live data during the runs (CONSOLE=0: none). */
const CONSOLE = process.env.CONSOLE !== '0';
/** Memory counts as still growing past max(this many MB, this per cent of the working set) (see judgeMemory). */
const MEMORY_GROWTH_MB = env('MEMORY_GROWTH_MB', 10);
const MEMORY_GROWTH_PERCENT = env('MEMORY_GROWTH_PERCENT', 10);
/** The warm-up before the measured window: the live heap is read once the working set has formed (every device heard twice, the 60 s caches reloaded once), then SETTLE seconds pass. */
const FORMED_AFTER_S = env('WARMUP', Math.max(70, (2 * INTERVAL_MS) / 1000));
const SETTLE_S = env('SETTLE', 5);

interface ConsoleLatency {
  received: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
}

/**
 * A console watching every device's live data (bench/console-viewer.ts, its own process): `env`
 * says how it connects. Answers a function that stops it and answers what it measured of the
 * messages the devices sent in the measured window.
 */
async function watchLiveData(
  env: Record<string, string>,
): Promise<(window: { startedAt: number; endedAt: number }) => Promise<ConsoleLatency | undefined>> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bench/console-viewer.ts'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  for (let i = 0; i < 600 && !lines.includes('ready'); i++) await sleep(100);
  return async ({ startedAt, endedAt }) => {
    const exited = new Promise((r) => child.once('exit', r));
    child.stdin.write(`${JSON.stringify({ from: startedAt, to: endedAt })}\n`);
    await exited;
    const last = lines.find((l) => l.startsWith('{'));
    return last ? (JSON.parse(last) as ConsoleLatency) : undefined;
  };
}

const consoleLine = (c: ConsoleLatency | undefined) =>
  c
    ? `${n(c.received)} messages received, p50 ${ms(c.p50 ?? NaN)}, p90 ${ms(c.p90 ?? NaN)}, p99 ${ms(c.p99 ?? NaN)}, max ${ms(c.max ?? NaN)}`
    : '–';

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
let bare: { run: FleetRun; stallMs: number; viewer: ConsoleLatency | undefined } | undefined;
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
  const stopViewer = CONSOLE
    ? await watchLiveData({ MQTT_URL: `mqtt://127.0.0.1:${String(port)}`, TOPIC: 'bare/+/data' })
    : undefined;
  let viewer: ConsoleLatency | undefined;
  const run = await runFleet(fleet, (i) => `bare/${devices[i]?.sn ?? ''}/data`, CEILING_S, shape, {
    onEnd: async (window) => {
      viewer = await stopViewer?.(window);
    },
  });
  await closeFleet(fleet);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  bare = { run, stallMs: loopBetween(reports, run.startedAt, run.drainedAt).stallMs, viewer };
  console.log(
    `  bare broker (${String(CEILING_S)} s): ${n((run.acked * POINTS) / CEILING_S)} points/s acknowledged, ${pubackLine(run)}, longest stall ${ms(bare.stallMs)}`,
  );
}

// The server.
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
const server = await startServer(
  dataDir,
  { ...(pgDb ? { DATABASE_URL: pgDb.url } : {}), METRICS_TOKEN },
  { probe: true, nodeArgs: ['--expose-gc'] },
);

/** The server's commits by time so far: cumulative counts of its commit-time histogram, by upper bound in seconds. */
async function commitBuckets(): Promise<Map<number, number>> {
  const res = await fetch(`http://127.0.0.1:${String(server.port)}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const buckets = new Map<number, number>();
  for (const line of (await res.text()).split('\n')) {
    const m = /^sluice_ingest_batch_commit_seconds_bucket\{le="([^"]+)"\} (\S+)$/.exec(line);
    if (m?.[1] && m[2]) buckets.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  }
  return buckets;
}
const reports: LoopReport[] = [];
server.child.on('message', (m) => {
  if (isLoopReport(m)) reports.push(m);
});
const token = await login(server.port);
// The live heap before the fleet connects (a device's working set is counted from it), once it
// is connected, once every device has sent, at the end of the run and once the drain is over.
const gcBefore = await forceGc(server.child);
const fleet = await connectFleet(`mqtt://127.0.0.1:${String(server.mqttPort)}`, devices, shape);
console.log(
  `  ${n(fleet.clients.length)} devices connected in ${fleet.connectSeconds.toFixed(1)} s${fleet.refused > 0 ? `, ${n(fleet.refused)} REFUSED` : ''}; warm-up ${String(FORMED_AFTER_S + SETTLE_S)} s, then running ${String(DURATION_S)} s…`,
);

const probe = probeApi(server.port, token);
const pid = server.child.pid ?? 0;
const rss = sampleRss(pid);
const gcConnected = await forceGc(server.child);
// The console: its own live client over WebSocket, subscribed to every device's data.
const stopViewer = CONSOLE
  ? await watchLiveData({
      WS_URL: `ws://127.0.0.1:${String(server.port)}/mqtt`,
      TOKEN: token,
      TOPIC: `sluice/${String(groupId)}/+/data`,
    })
  : undefined;
let viewer: ConsoleLatency | undefined;
let commitsBefore = new Map<number, number>();
let commitsAfter = new Map<number, number>();
let cpuBefore = { cpuSeconds: 0, at: 0 };
let cpuAfter = { cpuSeconds: 0, at: 0 };
const cpuNow = async () => ({ cpuSeconds: (await usage(pid)).cpuSeconds, at: performance.now() });
let gcFormed: Awaited<ReturnType<typeof forceGc>>;
let gcEnd: Awaited<ReturnType<typeof forceGc>>;
const run = await runFleet(fleet, (i) => `sluice/${String(groupId)}/${devices[i]?.sn ?? ''}/data`, DURATION_S, shape, {
  // Every device heard: the working set formed, read after a forced collection; then the
  // server catches up with what waited behind the collection before the window opens.
  warmUp: async () => {
    await sleep(FORMED_AFTER_S * 1000);
    gcFormed = await forceGc(server.child);
    await sleep(SETTLE_S * 1000);
    commitsBefore = await commitBuckets();
    cpuBefore = await cpuNow();
    ownLoop.reset();
  },
  // Every message sent in the window acknowledged; the fleet still publishing, so the live
  // heap is read with the queues as the run had them.
  afterWindow: async (window) => {
    cpuAfter = await cpuNow();
    commitsAfter = await commitBuckets();
    await sleep(1000); // what the broker forwarded to the console on its way
    viewer = await stopViewer?.(window);
    gcEnd = await forceGc(server.child);
  },
});
const gcDrained = await forceGc(server.child);
const http = await probe.stop({ from: run.startedAt, to: run.endedAt });
rss.stop();
const ownStallMs = ownLoop.max / 1e6;
const { Writer: writer, Backlog: backlog } = (
  (await (
    await fetch(`http://127.0.0.1:${String(server.port)}/api/Mqtt/Stats`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    data: {
      Writer: { batches: number; messages: number; peakPoints: number; peakBytes: number };
      Backlog: { peak: number; peakBytes: number; waited: number; readAgain: number; deferredReads: number } | null;
    };
  }
).data;
await closeFleet(fleet);
await server.stop();
// The stalls of the measured window, up to the moment its messages were answered (the end's forced collection comes after).
const loop = loopBetween(reports, run.startedAt, run.endedAt);
const during = reports.filter((r) => r.at >= run.startedAt && r.at <= run.endedAt);
const heap = during.map((r) => r.heapMb);
const external = during.map((r) => r.externalMb ?? NaN);

const stored = await countStored({ pgUrl: pgDb?.url, dataDir });
const ackedPoints = run.acked * POINTS;
failures.push(...fleetFailures(run, fleet, stored, shape));
// Slopes over the second half of the run: by then every device has sent, and the caches and queues are as full as they get.
const memory = memoryTrend(reports, run.startedAt, gcEnd?.at ?? run.endedAt, DURATION_S / 2);
const verdict = judgeMemory(reports, {
  before: gcBefore,
  formed: gcFormed,
  end: gcEnd,
  drained: gcDrained,
  devices: DEVICES,
  limitMb: MEMORY_GROWTH_MB,
  limitPercent: MEMORY_GROWTH_PERCENT,
});
failures.push(...verdict.failures);
const sum = (xs: (number | undefined)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);
const collected = {
  scavenges: sum(during.map((r) => r.scavenges)),
  fulls: sum(during.map((r) => r.fullGcs)),
  pauseMs: sum(during.map((r) => r.gcPauseMs)),
};

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
  messages:      sent ${n(run.sent)}, acknowledged ${n(run.acked)}, failed ${n(run.failed)}, in flight at the end ${n(run.inFlight)}; disconnected ${n(run.disconnected)}${fleet.errors.size > 0 ? ` (the devices said: ${[...fleet.errors].map(([m, c]) => `${m} ×${n(c)}`).join(', ')})` : ''}
  stored = ack:  ${stored === ackedPoints ? 'yes' : 'NO'} (${n(stored)} stored, ${n(ackedPoints)} acknowledged points)
  MQTT:          ${pubackLine(run)}
  HTTP:          ${httpLine(http)}
  console:       live data, device publish → the console's handler over WebSocket: ${CONSOLE ? consoleLine(viewer) : 'not watched (CONSOLE=0)'}${bare ? `; bare broker, same fleet: ${consoleLine(bare.viewer)}` : ''}
  event loop:    longest stall ${ms(loop.stallMs)} (${String(loop.over200)} stalls over 200 ms); this load generator's own longest ${ms(ownStallMs)}
  server:        ${(((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) / ((cpuAfter.at - cpuBefore.at) / 1000)) * 100).toFixed(0)}% CPU (of one core), ${rssLine(rss.samples)} (V8 heap in use ${n(heap[0] ?? NaN)} → ${n(heap.at(-1) ?? NaN)} MB, Buffers outside it ${n(external[0] ?? NaN)} → ${n(external.at(-1) ?? NaN)} MB); ${String(writer.batches)} commits of ${(writer.messages / Math.max(1, writer.batches)).toFixed(1)} messages on average`);
const mb = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '–' : `${n(v)} MB`);
const slope = (t: Trend) =>
  Number.isFinite(t.slope) ? `${t.slope >= 0 ? '+' : ''}${t.slope.toFixed(1)} MB/min` : 'too few samples';
console.log(`  memory:        live heap after a full GC, main thread and workers: connected ${mb(totalLive(gcConnected))}, every device heard (${String(FORMED_AFTER_S)} s) ${mb(totalLive(gcFormed))}, end of run ${mb(totalLive(gcEnd))}, after the drain ${mb(totalLive(gcDrained))}; ${verdict.summary}
                 working set ${verdict.perDeviceKb === undefined ? '–' : `${verdict.perDeviceKb.toFixed(1)} KB`} a device in the main thread (every device heard − before the fleet connected, ÷ devices); the main thread's live heap during the run: peak ${mb(memory.liveHeap.peak)}, slope over the last ${String(memory.windowSeconds)} s ${slope(memory.liveHeap)} (${String(memory.liveHeap.samples)} full GCs)
                 RSS ${mb(memory.rss.first)} → ${mb(memory.rss.last)} (peak ${mb(memory.rss.peak)}), slope ${slope(memory.rss)}; V8's heaps hold ${mb(memory.heapsPhysical.first)} → ${mb(memory.heapsPhysical.last)} (peak ${mb(memory.heapsPhysical.peak)}), slope ${slope(memory.heapsPhysical)}; ArrayBuffers ${mb(memory.arrayBuffers.first)} → ${mb(memory.arrayBuffers.last)}, slope ${slope(memory.arrayBuffers)} (mostly what held devices sent, not read yet: at most a socket read, 64 KiB, each — ${n((DEVICES * 64) / 1024)} MB for ${n(DEVICES)})
                 the main thread's collections: ${n(collected.scavenges)} scavenges, ${n(collected.fulls)} full, ${n(collected.pauseMs)} ms of pauses (${((collected.pauseMs / 1000 / elapsed) * 100).toFixed(1)}% of the run)
                 after full GCs: connected ${heapsLine(gcConnected)}; end ${heapsLine(gcEnd)}; drained ${heapsLine(gcDrained)}
  queues:        the writer held at most ${n(writer.peakPoints)} points, ${n(writer.peakBytes / 1024)} KiB of payload; the broker's backlog at most ${n(backlog?.peak ?? 0)} messages, ${n((backlog?.peakBytes ?? 0) / 1024)} KiB counted (${n(backlog?.waited ?? 0)} waited); held connections read again to answer a ping ${n(backlog?.readAgain ?? 0)} times, not while the backlog was full ${n(backlog?.deferredReads ?? 0)} times`);
/** The run's commits (the histogram's counts at its end less those at its start) taking longer than each bound. */
const commitLine = (): string => {
  const total = (commitsAfter.get(Infinity) ?? 0) - (commitsBefore.get(Infinity) ?? 0);
  const over = (le: number) => total - ((commitsAfter.get(le) ?? 0) - (commitsBefore.get(le) ?? 0));
  const share = (k: number) => `${n(k)} (${((k / Math.max(1, total)) * 100).toFixed(2)} %)`;
  return `${n(total)} during the run; over 25 ms ${share(over(0.025))}, over 50 ms ${share(over(0.05))}, over 100 ms ${share(over(0.1))}, over 250 ms ${share(over(0.25))}`;
};
console.log(`  commits:       ${commitLine()}`);
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
