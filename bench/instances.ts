/**
 * Ingest with one and with two server instances on PostgreSQL behind an external broker
 * (Mosquitto from Debian, /usr/sbin/mosquitto): the fleet of bench/fleet-kit.ts (DEVICES
 * devices, one QoS 1 message of POINTS points every INTERVAL seconds from a random phase, for
 * DURATION seconds, at least 60) publishes to Mosquitto; the servers (each its own process, as
 * deployed: MQTT_URL, one PostgreSQL database) ingest through the shared subscription
 * $share/sluice/… For each count of INSTANCES (default "1,2") a fresh database, a fresh broker and
 * fresh servers.
 *
 * At an external broker a device's PUBACK comes from the broker when it has the message, not
 * from Sluice once it is stored: Sluice's back-pressure holds its own subscriptions (one message
 * at a time per connection, acknowledged once committed), and what it cannot take yet waits in
 * its sessions' queues at the broker. So the benchmark reads what was stored from each server's
 * /metrics (sluice_ingest_points_total) once a second: points/s stored during the run, each
 * instance's share, the backlog at the broker when the run ends (acknowledged to devices, not
 * stored yet) and how long it took to store it (at most DRAIN seconds, default 300).
 *
 * Reports per count of instances: points/s stored, PUBACK p50/p99 (the broker's), a light
 * authenticated API call's p50/p99 on each instance (five a second each), each instance's share,
 * CPU, RSS and longest event-loop stall, and the broker's RSS; then the ratio of two instances
 * to one. In the same run, the ceilings: the bare broker (Mosquitto, the same fleet, and
 * bench/bare-consumer.ts taking every message through the shared subscription and acknowledging
 * it at once, CEILING seconds) and bare database writes (the server's write repository,
 * fleet-shaped batches of the one-instance run's average size, CEILING / 2 seconds).
 *
 * Fails (exit 1) when a device could not connect or was disconnected, a publish failed or went
 * unacknowledged, the servers had not stored every acknowledged point DRAIN seconds after the
 * run, or the database holds another number of points than was acknowledged.
 *
 *   BENCH_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres npm run bench:instances
 *   INSTANCES=1,2 DEVICES=10000 POINTS=50 INTERVAL=10 DURATION=60 CEILING=20 DRAIN=300 BENCH_DATABASE_URL=… npm run bench:instances
 */
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startMosquitto, type Mosquitto } from '../apps/server/test/mqtt-helpers.ts';
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
  type BareDatabase,
  type FleetRun,
} from './fleet-kit.ts';
import {
  ROOT,
  benchPgDatabase,
  isLoopReport,
  login,
  prepare,
  startServer,
  usage,
  type LoopReport,
  type RunningServer,
} from './live-server.ts';

const shape = fleetShape({ devices: 10_000, drainS: 300 });
const COUNTS = (process.env.INSTANCES ?? '1,2').split(',').map((c) => Number(c.trim()));
if (COUNTS.some((c) => !Number.isInteger(c) || c < 1 || c > 8))
  throw new Error('INSTANCES is a list of counts from 1 to 8, e.g. "1,2"');
/** Seconds of the bare broker's run (the bare database gets half); 0 skips the ceilings. */
const CEILING_S = env('CEILING', 20);
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
/** Mosquitto as the servers need it: no limit on what waits for a subscriber (its default drops past 1,000 a session). */
const BROKER_CONF = ['max_queued_messages 0'];
const dataTopic = (groupId: number, sn: string) => `sluice/${String(groupId)}/${sn}/data`;

if (!process.env.BENCH_DATABASE_URL) {
  console.error('Set BENCH_DATABASE_URL to a PostgreSQL server (a scratch database is made there for each run and dropped).');
  process.exit(1);
}
const ownLoop = monitorEventLoopDelay({ resolution: 10 });
ownLoop.enable();

/** A server's counters from its /metrics. */
async function metricsOf(server: RunningServer): Promise<{ points: number; messages: number; batches: number }> {
  const res = await fetch(`http://127.0.0.1:${String(server.port)}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
  return {
    points: value(/^sluice_ingest_points_total (\S+)$/m),
    messages: value(/^sluice_ingest_messages_total (\S+)$/m),
    batches: value(/^sluice_ingest_batches_total\{outcome="committed"\} (\S+)$/m),
  };
}

async function ready(server: RunningServer): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`http://127.0.0.1:${String(server.port)}/readyz`).catch(() => undefined);
    if (res?.status === 200) return;
    await sleep(100);
  }
  throw new Error(`the server on ${String(server.port)} did not become ready`);
}

interface Phase {
  instances: number;
  run: FleetRun;
  failures: string[];
  /** Points stored by all servers while devices published (from the servers' counters). */
  storedInRun: number;
  /** Acknowledged to devices, not stored yet, when the run ended. */
  backlogAtEnd: number;
  /** Seconds after the run until every acknowledged point was stored (NaN: not within DRAIN). */
  drainSeconds: number;
  stored: number;
  servers: {
    share: number;
    cpuPercent: number;
    rss: number[];
    heap: number[];
    stallMs: number;
    over200: number;
    http: { times: number[]; failed: number };
    messagesPerCommit: number;
  }[];
  brokerRss: number[];
  messagesPerCommit: number;
}

/** The bare broker: Mosquitto, the fleet and a consumer that acknowledges at once. */
async function bareBroker(devices: { sn: string; secret: string }[], groupId: number) {
  const broker = await startMosquitto(BROKER_CONF);
  const consumer = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bench/bare-consumer.ts'], {
    cwd: ROOT,
    env: { ...process.env, MQTT_URL: broker.url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let received = 0;
  const readyNow = new Promise<void>((resolve) => {
    consumer.on('message', (m: { ready?: boolean; received: number }) => {
      received = m.received;
      if (m.ready) resolve();
    });
  });
  await readyNow;
  const fleet = await connectFleet(broker.url, devices, shape);
  const run = await runFleet(fleet, (i) => dataTopic(groupId, devices[i]?.sn ?? ''), CEILING_S, shape);
  await closeFleet(fleet);
  const receivedByEnd = received;
  const exited = new Promise((r) => consumer.once('exit', r));
  consumer.kill('SIGTERM');
  await exited;
  await broker.stop();
  return { run, deliveredPerSecond: (receivedByEnd * shape.points) / ((run.drainedAt - run.startedAt) / 1000) };
}

interface Ceilings {
  broker: Awaited<ReturnType<typeof bareBroker>>;
  database: BareDatabase;
}

/** A run with `instances` servers; with `ceilings`, the bare broker's before it and the bare database's after. */
async function runPhase(instances: number, ceilings: boolean): Promise<{ phase: Phase; ceilings?: Ceilings }> {
  const pgDb = await benchPgDatabase();
  if (!pgDb) throw new Error('no database');
  const { dataDir, groupId, devices } = await prepare(shape.devices, pgDb.url);
  const bare = ceilings ? await bareBroker(devices, groupId) : undefined;
  if (bare)
    console.log(
      `  bare broker (${String(CEILING_S)} s): ${n(bare.deliveredPerSecond)} points/s delivered to the bare consumer, ${pubackLine(bare.run)}`,
    );
  const broker: Mosquitto = await startMosquitto(BROKER_CONF);
  const servers: RunningServer[] = [];
  const reports: LoopReport[][] = [];
  // One after the other: the first migrates (prepare has), the others find it done.
  for (let i = 0; i < instances; i++) {
    const dir = path.join(dataDir, `instance-${String(i)}`);
    await mkdir(dir, { recursive: true });
    const server = await startServer(
      dir,
      { DATABASE_URL: pgDb.url, MQTT_URL: broker.url, MQTT_SHARE_GROUP: 'sluice', METRICS_TOKEN, LEADER_RETRY_SECONDS: '5' },
      { probe: true },
    );
    const own: LoopReport[] = [];
    server.child.on('message', (m) => {
      if (isLoopReport(m)) own.push(m);
    });
    await ready(server);
    servers.push(server);
    reports.push(own);
  }
  const tokens = await Promise.all(servers.map((s) => login(s.port)));
  const fleet = await connectFleet(broker.url, devices, shape);
  console.log(
    `  ${String(instances)} instance${instances > 1 ? 's' : ''}: ${n(fleet.clients.length)} devices connected to Mosquitto in ${fleet.connectSeconds.toFixed(1)} s${fleet.refused > 0 ? `, ${n(fleet.refused)} REFUSED` : ''}; running ${String(shape.durationS)} s…`,
  );

  const probes = servers.map((s, i) => probeApi(s.port, tokens[i] ?? ''));
  const rss = servers.map((s) => sampleRss(s.child.pid ?? 0));
  const brokerRss = sampleRss(broker.child.pid ?? 0);
  const cpuBefore = await Promise.all(servers.map((s) => usage(s.child.pid ?? 0)));
  const before = await Promise.all(servers.map(metricsOf));
  ownLoop.reset();
  // The servers' stored points once a second, to read them as they were when the run ended.
  const samples: { at: number; points: number }[] = [];
  const poller = setInterval(() => {
    const at = Date.now();
    Promise.all(servers.map(metricsOf)).then(
      (all) => samples.push({ at, points: all.reduce((sum, m, i) => sum + m.points - (before[i]?.points ?? 0), 0) }),
      () => undefined,
    );
  }, 1000);
  const run = await runFleet(fleet, (i) => dataTopic(groupId, devices[i]?.sn ?? ''), shape.durationS, {
    ...shape,
    // The broker acknowledges devices at once; how long Sluice takes to store it all is timed below.
    drainS: Math.min(shape.drainS, 60),
  });
  const endedAt = run.endedAt;
  const cpuAfter = await Promise.all(servers.map((s) => usage(s.child.pid ?? 0)));
  const http = await Promise.all(probes.map((p) => p.stop()));
  const ackedPoints = run.acked * shape.points;
  const storedNow = async () => (await Promise.all(servers.map(metricsOf))).reduce((sum, m) => sum + m.points, 0);
  let drainSeconds = NaN;
  for (;;) {
    const stored = await storedNow();
    if (stored >= ackedPoints) {
      drainSeconds = Math.max(0, (Date.now() - endedAt) / 1000);
      break;
    }
    if (Date.now() - endedAt > shape.drainS * 1000) break;
    await sleep(250);
  }
  clearInterval(poller);
  for (const r of rss) r.stop();
  brokerRss.stop();
  const after = await Promise.all(servers.map(metricsOf));
  await closeFleet(fleet);
  for (const s of servers) await s.stop();
  await broker.stop();
  const stored = await countStored({ pgUrl: pgDb.url, dataDir });

  const failures = fleetFailures(run, fleet, stored, shape);
  const totalPoints = after.reduce((s, m, i) => s + m.points - (before[i]?.points ?? 0), 0);
  // Between the samples around the run's end, as if stored evenly within that second.
  const last = samples.filter((x) => x.at <= endedAt).at(-1) ?? { at: run.startedAt, points: 0 };
  const next = samples.find((x) => x.at > endedAt) ?? last;
  const storedInRun =
    next.at === last.at ? last.points : last.points + ((next.points - last.points) * (endedAt - last.at)) / (next.at - last.at);
  if (Number.isNaN(drainSeconds))
    failures.push(`${n(ackedPoints - totalPoints)} acknowledged points not stored ${String(shape.drainS)} s after the run`);
  const elapsed = (run.endedAt - run.startedAt) / 1000;
  const sumOf = (key: 'messages' | 'batches') => after.reduce((s, m, i) => s + m[key] - (before[i]?.[key] ?? 0), 0);
  const phase: Phase = {
    instances,
    run,
    failures,
    storedInRun,
    backlogAtEnd: Math.max(0, run.ackedInRun * shape.points - storedInRun),
    drainSeconds,
    stored,
    servers: servers.map((_, i) => {
      const during = (reports[i] ?? []).filter((r) => r.at >= run.startedAt && r.at <= run.endedAt);
      const loop = loopBetween(reports[i] ?? [], run.startedAt, run.drainedAt);
      const m = after[i] ?? { points: 0, messages: 0, batches: 0 };
      const b = before[i] ?? { points: 0, messages: 0, batches: 0 };
      return {
        share: (m.points - b.points) / Math.max(1, totalPoints),
        cpuPercent: (((cpuAfter[i]?.cpuSeconds ?? 0) - (cpuBefore[i]?.cpuSeconds ?? 0)) / elapsed) * 100,
        rss: rss[i]?.samples ?? [],
        heap: during.map((r) => r.heapMb),
        stallMs: loop.stallMs,
        over200: loop.over200,
        http: http[i] ?? { times: [], failed: 0 },
        messagesPerCommit: (m.messages - b.messages) / Math.max(1, m.batches - b.batches),
      };
    }),
    brokerRss: brokerRss.samples,
    messagesPerCommit: sumOf('messages') / Math.max(1, sumOf('batches')),
  };
  const bareDb = bare
    ? await bareDatabaseWrites({
        dataDir,
        pgUrl: pgDb.url,
        groupId,
        devices,
        batchMessages: Math.round(phase.messagesPerCommit),
        seconds: CEILING_S / 2,
        shape,
      })
    : undefined;
  await pgDb.drop();
  await rm(dataDir, { recursive: true, force: true });
  return { phase, ...(bare && bareDb ? { ceilings: { broker: bare, database: bareDb } } : {}) };
}

const storedPerSecond = (p: Phase) => p.storedInRun / ((p.run.endedAt - p.run.startedAt) / 1000);

console.log(
  `Instances ${COUNTS.join(', ')}: ${n(shape.devices)} devices × ${String(shape.points)} points every ${String(shape.intervalMs / 1000)} s (${n(offered(shape))} points/s offered), ${String(shape.durationS)} s each, PostgreSQL, Mosquitto; load ${load()}`,
);
const phases: Phase[] = [];
let ceilings: Ceilings | undefined;
for (const [i, count] of COUNTS.entries()) {
  const result = await runPhase(count, CEILING_S > 0 && i === 0);
  phases.push(result.phase);
  ceilings ??= result.ceilings;
  const p = result.phase;
  console.log(`
${String(count)} instance${count > 1 ? 's' : ''}, PostgreSQL, Mosquitto: ${n(shape.devices)} devices × ${String(shape.points)} points / ${String(shape.intervalMs / 1000)} s, QoS 1, ${((p.run.endedAt - p.run.startedAt) / 1000).toFixed(1)} s; load ${load()}
  stored:        ${n(storedPerSecond(p))} points/s during the run (offered ${n(offered(shape))}); at the broker when the run ended ${n(p.backlogAtEnd)} points acknowledged and not stored yet, ${Number.isNaN(p.drainSeconds) ? `NOT stored within ${String(shape.drainS)} s` : `all stored ${p.drainSeconds.toFixed(1)} s after the run`}
  messages:      sent ${n(p.run.sent)}, acknowledged ${n(p.run.acked)}, failed ${n(p.run.failed)}, unacknowledged ${n(p.run.inFlight)}; disconnected ${n(p.run.disconnected)}
  stored = ack:  ${p.stored === p.run.acked * shape.points ? 'yes' : 'NO'} (${n(p.stored)} stored, ${n(p.run.acked * shape.points)} acknowledged points)
  MQTT:          ${pubackLine(p.run)} (the broker's)
  broker:        Mosquitto ${rssLine(p.brokerRss)}
  commits:       ${p.messagesPerCommit.toFixed(1)} messages each on average`);
  p.servers.forEach((s, i) => {
    console.log(`  instance ${String.fromCharCode(65 + i)}:    ${(s.share * 100).toFixed(1)} % of the points, ${s.cpuPercent.toFixed(0)} % CPU (of one core), ${rssLine(s.rss)} (V8 heap ${n(s.heap[0] ?? NaN)} → ${n(s.heap.at(-1) ?? NaN)} MB); longest stall ${ms(s.stallMs)} (${String(s.over200)} over 200 ms); ${s.messagesPerCommit.toFixed(1)} messages a commit
                 HTTP ${httpLine(s.http)}`);
  });
  if (p.failures.length > 0) console.log(`  FAILED: ${p.failures.join('; ')}`);
}
console.log(`\nSummary (load ${load()} at the end; this load generator's own longest stall ${ms(ownLoop.max / 1e6)}):`);
for (const p of phases) {
  const sorted = p.servers.flatMap((s) => s.http.times).sort((a, b) => a - b);
  console.log(
    `  ${String(p.instances)} instance${p.instances > 1 ? 's' : ''}: ${n(storedPerSecond(p))} points/s stored during the run, ${n(p.backlogAtEnd)} waiting at the broker at its end, HTTP p50 ${ms(sorted[Math.floor(sorted.length / 2)] ?? NaN)} / p99 ${ms(sorted[Math.floor(sorted.length * 0.99)] ?? NaN)}${p.failures.length > 0 ? ' — FAILED' : ''}`,
  );
}
const one = phases.find((p) => p.instances === 1);
for (const p of phases.filter((x) => x.instances > 1 && one)) {
  if (one)
    console.log(
      `  ${String(p.instances)} instances / 1: ${(storedPerSecond(p) / storedPerSecond(one)).toFixed(2)} × the points/s stored`,
    );
}
if (ceilings) {
  console.log(
    `  ceiling:       bare broker ${n(ceilings.broker.deliveredPerSecond)} points/s delivered, ${pubackLine(ceilings.broker.run)}`,
  );
  console.log(`                 ${bareDatabaseLine(ceilings.database)}`);
}
const failed = phases.filter((p) => p.failures.length > 0);
if (failed.length > 0) {
  console.log(`\nFAILED: ${failed.map((p) => `${String(p.instances)} instance(s): ${p.failures.join('; ')}`).join(' | ')}`);
  process.exit(1);
}
process.exit(0);
