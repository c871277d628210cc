/**
 * The fleet the ingest benchmarks drive (bench/fleet.ts through the embedded broker,
 * bench/instances.ts through an external one): DEVICES devices, each a real MQTT connection over
 * TCP, publishing one QoS 1 message of POINTS points every INTERVAL seconds from a random phase
 * with the current time; the checks that say whether a run measured what it claims (nothing in
 * flight, none refused or disconnected, stored = acknowledged); and the bare database's ceiling
 * (the server's own write repository committing fleet-shaped batches in the benchmark's process).
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { openSqliteConnection } from '../apps/server/src/db/node-sqlite-dialect.ts';
import { SqliteWriteStatements } from '../apps/server/src/modules/telemetry/sqlite-write.statements.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';
import { percentile, usage, type BenchDevice, type LoopReport } from './live-server.ts';

/** A number from the environment (≥ 0), else `fallback`. */
export const env = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};

/** The fleet's shape, from DEVICES, POINTS, INTERVAL, DURATION, CONNECT_RATE, DRAIN and KEEPALIVE. */
export interface FleetShape {
  devices: number;
  points: number;
  intervalMs: number;
  durationS: number;
  /** Devices connecting per second before the run. */
  connectRate: number;
  /** How long the messages in flight at the end may take to be acknowledged. */
  drainS: number;
  /** The devices' MQTT keep-alive, seconds (mqtt.js gives up after 1.5 of it without a packet from the server). */
  keepalive: number;
  keys: string[];
}

export function fleetShape(defaults: { devices: number; drainS?: number }): FleetShape {
  const points = env('POINTS', 50);
  const shape = {
    devices: env('DEVICES', defaults.devices),
    points,
    intervalMs: env('INTERVAL', 10) * 1000,
    durationS: env('DURATION', 60),
    connectRate: env('CONNECT_RATE', 1000),
    drainS: env('DRAIN', defaults.drainS ?? 60),
    keepalive: env('KEEPALIVE', 60),
    keys: Array.from({ length: points }, (_, i) => `P${String(i).padStart(2, '0')}`),
  };
  if (shape.durationS < 60 && process.env.ALLOW_SHORT !== '1')
    throw new Error('DURATION must be at least 60 s (ALLOW_SHORT=1 to try the benchmark out)');
  return shape;
}

export const offered = (shape: FleetShape): number => (shape.devices * shape.points * 1000) / shape.intervalMs;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
export const ms = (v: number): string =>
  Number.isFinite(v) ? `${v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US')} ms` : '–';
export const n = (v: number): string => Math.round(v).toLocaleString('en-US');
export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
export const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export interface Fleet {
  clients: MqttClient[];
  refused: number;
  connectSeconds: number;
  /** What the devices' clients said went wrong (their own keep-alive time-out, a reset…), by message. */
  errors: Map<string, number>;
}

/** Connects the devices at `shape.connectRate` per second. */
export async function connectFleet(url: string, devices: BenchDevice[], shape: FleetShape): Promise<Fleet> {
  const started = performance.now();
  const clients: MqttClient[] = [];
  const errors = new Map<string, number>();
  let refused = 0;
  const step = Math.max(1, Math.round(shape.connectRate / 10));
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
          keepalive: shape.keepalive,
          connectTimeout: 60_000,
        }),
      ),
    );
    for (const s of settled) {
      if (s.status === 'fulfilled') {
        s.value.on('error', (error) => {
          errors.set(error.message, (errors.get(error.message) ?? 0) + 1);
        });
        clients.push(s.value);
      } else refused += 1;
    }
    const wait = 100 - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
  }
  return { clients, refused, connectSeconds: (performance.now() - started) / 1000, errors };
}

export interface FleetRun {
  seconds: number;
  sent: number;
  acked: number;
  failed: number;
  inFlight: number;
  /** Messages acknowledged during the measured window (not counting the warm-up and the drain). */
  ackedInRun: number;
  disconnected: number;
  /** PUBACK times of the messages sent in the measured window. */
  pubacks: number[];
  /** Points acknowledged in each second of the measured window. */
  perSecond: number[];
  /** The measured window (Date.now()). */
  startedAt: number;
  endedAt: number;
  drainedAt: number;
}

/**
 * What a run does besides publishing. `warmUp` runs before the measured window, the fleet
 * already publishing (every device on its interval when the window opens); `afterWindow` runs
 * once the messages sent in the window are acknowledged, the fleet still publishing. Both are
 * for readings that disturb the server (a forced collection stalls it): nothing sent while they
 * run is measured. `onEnd` runs when publishing has stopped, before waiting for what is in flight.
 */
export interface FleetPhases {
  warmUp?: () => Promise<unknown>;
  afterWindow?: (run: FleetRun) => Promise<unknown>;
  onEnd?: (run: FleetRun) => Promise<unknown>;
}

/**
 * Each device publishes every interval from a random phase: during `phases.warmUp`, for the
 * measured window of `seconds`, during `phases.afterWindow`; then (after `phases.onEnd`) waits
 * for what is in flight.
 */
export async function runFleet(
  fleet: Fleet,
  topicOf: (i: number) => string,
  seconds: number,
  shape: FleetShape,
  phases: FleetPhases = {},
): Promise<FleetRun> {
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
  /** Whether a message sent now is measured; of those, how many were sent and answered. */
  let measuring = !phases.warmUp;
  const window = { sent: 0, answered: 0 };
  const timers: NodeJS.Timeout[] = [];
  for (const [i, client] of fleet.clients.entries()) {
    client.once('close', () => {
      if (running || run.sent > run.acked + run.failed) run.disconnected += 1;
    });
    const topic = topicOf(i);
    const publish = () => {
      if (!running || !client.connected) return;
      const values: Record<string, number> = { Time: Date.now() };
      for (const key of shape.keys) values[key] = Math.round(Math.random() * 10_000) / 100;
      const t0 = performance.now();
      const measured = measuring;
      run.sent += 1;
      if (measured) window.sent += 1;
      client.publish(topic, JSON.stringify(values), { qos: 1 }, (error) => {
        if (error) run.failed += 1;
        else {
          run.acked += 1;
          if (measured) run.pubacks.push(performance.now() - t0);
        }
        if (measured) window.answered += 1;
      });
    };
    timers.push(
      setTimeout(() => {
        if (!running) return;
        publish();
        timers.push(setInterval(publish, shape.intervalMs));
      }, Math.random() * shape.intervalMs),
    );
  }
  if (phases.warmUp) {
    await phases.warmUp();
    measuring = true;
    run.startedAt = Date.now();
  }
  const ackedBefore = run.acked;
  let last = run.acked;
  const ticker = setInterval(() => {
    run.perSecond.push((run.acked - last) * shape.points);
    last = run.acked;
  }, 1000);
  await sleep(seconds * 1000);
  measuring = false;
  run.endedAt = Date.now();
  run.ackedInRun = run.acked - ackedBefore;
  clearInterval(ticker);
  if (phases.afterWindow) {
    for (let i = 0; i < shape.drainS * 10 && window.answered < window.sent; i++) await sleep(100);
    await phases.afterWindow(run);
  }
  running = false;
  for (const t of timers) clearTimeout(t);
  await phases.onEnd?.(run);
  for (let i = 0; i < shape.drainS * 10 && run.acked + run.failed < run.sent; i++) await sleep(100);
  run.drainedAt = Date.now();
  run.inFlight = run.sent - run.acked - run.failed;
  // What comes later is not counted.
  return { ...run, pubacks: [...run.pubacks] };
}

export async function closeFleet(fleet: Fleet): Promise<void> {
  await Promise.all(fleet.clients.map((c) => c.endAsync(true).catch(() => undefined)));
}

/**
 * The longest stall a probe reported that overlapped a time span (a stall is reported when it
 * ends, so reports are read until the process stops), and how many stalls passed 200 ms.
 */
export function loopBetween(reports: LoopReport[], from: number, to: number): { stallMs: number; over200: number } {
  const within = reports.filter((r) => r.at >= from && r.at - r.stallMs <= to);
  return {
    stallMs: Math.max(0, ...within.map((r) => r.stallMs)),
    over200: within.filter((r) => r.stallMs > 200).length,
  };
}

export function pubackLine(run: FleetRun): string {
  const sorted = [...run.pubacks].sort((a, b) => a - b);
  return `PUBACK p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`;
}

/** Points/s acknowledged during the run, and the median and least of each second after the first interval. */
export function storedLine(run: FleetRun, shape: FleetShape): string {
  const elapsed = (run.endedAt - run.startedAt) / 1000;
  const steady = run.perSecond.slice(Math.ceil(shape.intervalMs / 1000)).sort((a, b) => a - b);
  return `${n((run.ackedInRun * shape.points) / elapsed)} points/s acknowledged during the run (offered ${n(offered(shape))}); after the first interval median ${n(percentile(steady, 50))}, min ${n(steady[0] ?? NaN)} per second`;
}

/** Rows in raw history: on PostgreSQL at `pgUrl`, else in the SQLite database of `dataDir`. */
export async function countStored(where: { pgUrl?: string | undefined; dataDir: string }): Promise<number> {
  if (where.pgUrl) {
    const client = new pg.Client({ connectionString: where.pgUrl });
    await client.connect();
    const stored = Number((await client.query<{ n: string }>('select count(*) as n from telemetry_raw')).rows[0]?.n ?? 0);
    await client.end();
    return stored;
  }
  const db = new DatabaseSync(path.join(where.dataDir, 'sluice.db'), { readOnly: true });
  const stored = (db.prepare('select count(*) as n from telemetry_raw').get() as { n: number }).n;
  db.close();
  return stored;
}

/** What makes a run not measure what it says: the run's failures, in words (empty when it passed). */
export function fleetFailures(run: FleetRun, fleet: Fleet, stored: number, shape: FleetShape): string[] {
  const failures: string[] = [];
  const ackedPoints = run.acked * shape.points;
  if (fleet.refused > 0) failures.push(`${n(fleet.refused)} devices could not connect`);
  if (run.inFlight > 0) failures.push(`${n(run.inFlight)} messages still in flight ${String(shape.drainS)} s after the run`);
  if (run.failed > 0) failures.push(`${n(run.failed)} publishes failed`);
  if (run.disconnected > 0) failures.push(`${n(run.disconnected)} devices were disconnected`);
  if (stored !== ackedPoints) failures.push(`stored ${n(stored)} ≠ acknowledged ${n(ackedPoints)} points`);
  return failures;
}

export interface BareDatabase {
  pointsPerSecond: number;
  perCpuSecond: number;
  batchMessages: number;
}

/**
 * Ceiling: bare database writes, fleet-shaped batches (one point per series) of `batchMessages`
 * messages, with the server's own write repository in this process, for `seconds`.
 */
export async function bareDatabaseWrites(options: {
  dataDir: string;
  pgUrl?: string | undefined;
  groupId: number;
  devices: BenchDevice[];
  batchMessages: number;
  seconds: number;
  shape: FleetShape;
}): Promise<BareDatabase> {
  const { dataDir, pgUrl, groupId, devices, shape } = options;
  const database = await openDatabase({ dataDir, databaseUrl: pgUrl });
  // The server's own statements: on SQLite those of its writer's thread, on a connection of their own.
  const native = pgUrl ? undefined : openSqliteConnection(path.join(dataDir, 'sluice.db'));
  const repository = new TelemetryWriteRepository(
    native ? new SqliteWriteStatements(native) : database.db,
    database.dialect,
    480,
  );
  const batchMessages = Math.max(1, Math.min(devices.length, options.batchMessages));
  let ts = Date.now() + 86_400_000;
  let next = 0;
  let points = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < options.seconds * 1000) {
    const batch: BatchPoint[] = [];
    for (let m = 0; m < batchMessages; m++) {
      const sn = devices[next]?.sn ?? '';
      for (const key of shape.keys)
        batch.push({ groupId, deviceSn: sn, key, defined: false, ts, num: Math.random() * 100, txt: null });
      next += 1;
      if (next === devices.length) {
        next = 0;
        ts += shape.intervalMs;
      }
    }
    await repository.commit(batch, []);
    points += batch.length;
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  native?.close();
  await database.close();
  return { pointsPerSecond: points / wall, perCpuSecond: points / ((cpu.user + cpu.system) / 1e6), batchMessages };
}

export function bareDatabaseLine(bare: BareDatabase): string {
  return `bare database writes ${n(bare.pointsPerSecond)} points/s (${n(bare.perCpuSecond)} per CPU-second of this process) in batches of ${String(bare.batchMessages)} messages`;
}

export interface ApiProbe {
  /** Ends the calls; their times (ms) and how many failed or did not answer 200 (of those started in `window`, Date.now(), when given). */
  stop(window?: { from: number; to: number }): Promise<{ times: number[]; failed: number }>;
}

/** A light authenticated API call (GET /api/user/myinfo), one after the other, every `everyMs`, until stopped. */
export function probeApi(port: number, token: string, everyMs = 200): ApiProbe {
  const calls: { at: number; took: number; ok: boolean }[] = [];
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      const at = Date.now();
      const t0 = performance.now();
      let ok: boolean;
      try {
        const res = await fetch(`http://127.0.0.1:${String(port)}/api/user/myinfo`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(180_000),
        });
        await res.arrayBuffer();
        ok = res.status === 200;
      } catch {
        ok = false;
      }
      const took = performance.now() - t0;
      calls.push({ at, took, ok });
      await sleep(Math.max(0, everyMs - took));
    }
  })();
  return {
    async stop(window) {
      state.running = false;
      await loop;
      const counted = window ? calls.filter((c) => c.at >= window.from && c.at < window.to) : calls;
      return { times: counted.map((c) => c.took), failed: counted.filter((c) => !c.ok).length };
    },
  };
}

export function httpLine(probe: { times: number[]; failed: number }): string {
  const sorted = [...probe.times].sort((a, b) => a - b);
  return `GET /api/user/myinfo ×${String(sorted.length)}: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}, ${String(probe.failed)} failed or not 200`;
}

/** A process's RSS (MB) once a second until stopped, from /proc. */
export function sampleRss(pid: number): { samples: number[]; stop(): void } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    usage(pid).then(
      (u) => samples.push(u.rssMb),
      () => undefined,
    );
  }, 1000);
  return {
    samples,
    stop: () => {
      clearInterval(timer);
    },
  };
}

export function rssLine(samples: number[]): string {
  return `RSS first 10 s ${n(avg(samples.slice(0, 10)))} MB, last 10 s ${n(avg(samples.slice(-10)))} MB, peak ${n(Math.max(...samples))} MB`;
}
