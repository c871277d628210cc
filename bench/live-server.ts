/**
 * For the live-data benchmarks: a fresh database with a tenant and N devices with known
 * secrets, the real server started as its own process (so that its CPU time and memory can be
 * read apart from the load generator's), and its resource use from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { createTenant } from '../apps/server/src/modules/groups/tenancy.service.ts';
import { hashDeviceSecret } from '../apps/server/src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../apps/server/src/modules/devices/devices.repository.ts';
import type { ThreadHeap } from './loop-probe.ts';
import { createScratchDatabase, freePort, type ScratchDatabase } from '../apps/server/test/scratch.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ADMIN = { account: 'admin', password: 'Admin12345' };

export interface BenchDevice {
  sn: string;
  secret: string;
}

/** A fresh PostgreSQL database on the BENCH_DATABASE_URL server, when that is set (else SQLite). */
export async function benchPgDatabase(): Promise<ScratchDatabase | undefined> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  return serverUrl ? createScratchDatabase(serverUrl, 'sluice_bench') : undefined;
}

/** A database with a tenant ('admin' / Admin12345) and `count` devices; answers where it is and the devices. */
export async function prepare(
  count: number,
  databaseUrl?: string,
): Promise<{ dataDir: string; groupId: number; devices: BenchDevice[] }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-bench-'));
  const database = await openDatabase({ dataDir, databaseUrl });
  const tenant = await createTenant(database.db, {
    groupName: 'Bench',
    code: 'bench',
    adminAccount: ADMIN.account,
    adminPassword: ADMIN.password,
    platformAdmin: true,
  });
  const now = Date.now();
  const devices = Array.from({ length: count }, (_, i) => ({
    sn: `BN${String(i).padStart(8, '0')}`,
    secret: `bench-secret-${String(i)}`,
  }));
  for (let i = 0; i < devices.length; i += 500) {
    await database.db
      .insertInto('devices')
      .values(
        devices.slice(i, i + 500).map((d) =>
          newDeviceRow(
            {
              group_id: tenant.groupId,
              device_sn: d.sn,
              device_name: `Bench ${d.sn}`,
              secret_hash: hashDeviceSecret(d.secret),
            },
            now,
          ),
        ),
      )
      .execute();
  }
  await database.close();
  return { dataDir, groupId: tenant.groupId, devices };
}

export interface RunningServer {
  child: ChildProcess;
  port: number;
  mqttPort: number;
  stop(): Promise<void>;
}

/**
 * The server as its own process. With `probe`, bench/loop-probe.ts runs inside it and reports
 * its event loop's stalls and its memory as 'message' events of the child (see LoopReport).
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: { probe?: boolean; nodeArgs?: string[]; fileLimit?: number } = {},
): Promise<RunningServer> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  loadConfig({ DATA_DIR: dataDir, ...env });
  const preload = options.probe ? ['--import', './bench/loop-probe.ts'] : [];
  // SERVER_NODE_ARGS: more flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (written when it stops);
  // SERVER_LOG_LEVEL: its log level (error by default; its log goes to this process's stderr);
  // SERVER_LOG: a file for its log instead (at SERVER_LOG_LEVEL, info by default).
  const extra = [...(options.nodeArgs ?? []), ...(process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const args = ['--disable-warning=ExperimentalWarning', ...extra, ...preload, 'apps/server/src/main.ts'];
  const log = process.env.SERVER_LOG
    ? openSync(process.env.SERVER_LOG, 'a')
    : process.env.SERVER_LOG_LEVEL
      ? process.stderr
      : 'ignore';
  const child = spawn(...withFileLimit(options.fileLimit, process.execPath, args), {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DEMO: '0',
      LOG_LEVEL: process.env.SERVER_LOG_LEVEL ?? (process.env.SERVER_LOG ? 'info' : 'error'),
      ADMIN_PASSWORD: ADMIN.password,
      WEB_DIST: path.join(dataDir, 'none'),
      ...env,
    },
    stdio: ['ignore', log, 'inherit', ...(options.probe ? (['ipc'] as const) : [])],
  });
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${String(port)}/api/nothing`).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 300));
  return {
    child,
    port,
    mqttPort,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A command that runs `command` with at most `limit` open files (the shell raises the limit, up
 * to the hard limit, then becomes the command: the child's pid is the command's).
 */
export function withFileLimit(limit: number | undefined, command: string, args: string[]): [string, string[]] {
  if (limit === undefined) return [command, args];
  return ['/bin/sh', ['-c', `ulimit -n ${String(limit)} && exec "$0" "$@"`, command, ...args]];
}

/** The open-file limits of this process (soft, hard), from /proc; a child starts with the same. */
export async function fileLimits(): Promise<{ soft: number; hard: number }> {
  const limits = await readFile('/proc/self/limits', 'utf8');
  const [, soft = '0', hard = '0'] = /Max open files\s+(\S+)\s+(\S+)/.exec(limits) ?? [];
  const value = (v: string) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: value(soft), hard: value(hard) };
}

export async function login(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${String(port)}/api/User`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Account: ADMIN.account, Password: ADMIN.password }),
  });
  return ((await res.json()) as { data: { Token: string } }).data.Token;
}

/** What bench/loop-probe.ts sends once a second from inside a process. */
export interface LoopReport {
  probe: 'loop';
  /** Date.now() when sent. */
  at: number;
  /** The longest the event loop stalled in the second before. */
  stallMs: number;
  rssMb: number;
  /** V8's heap in use. */
  heapMb: number;
  /** Memory of the main thread's objects outside V8's heap (Buffers, ArrayBuffers). */
  externalMb?: number;
  /** Of which ArrayBuffers (Buffers among them). */
  arrayBuffersMb?: number;
  /** The memory V8's heap holds (pages committed, garbage or not). */
  physicalHeapMb?: number;
  /** The heap a full collection in the second before left (the live heap); undefined when none ran. */
  liveHeapMb?: number;
  /** The main thread's collections in the second before, and their pauses. */
  scavenges?: number;
  fullGcs?: number;
  gcPauseMs?: number;
  /** The process's worker threads' heaps (the SQLite writer's, reader's…). */
  threads?: ThreadHeap[];
}

/** What bench/loop-probe.ts answers to `{ probe: 'gc' }`: memory after a full garbage collection. */
export interface HeapReport {
  probe: 'heap';
  at: number;
  /** False when the process was not started with --expose-gc (then nothing was collected). */
  collected: boolean;
  gcMs: number;
  rssMb: number;
  /** V8's heap in use after the collection: what is live. */
  heapMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  /** The worker threads' heaps, each after a collection of its own (with loop-probe.ts in them). */
  threads?: ThreadHeap[];
}

/** Forces a full collection in a server started with `probe` and --expose-gc; answers the live heap after it. */
export function forceGc(child: ChildProcess, timeoutMs = 60_000): Promise<HeapReport | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('message', listen);
      resolve(undefined);
    }, timeoutMs);
    const listen = (message: unknown) => {
      if (!isHeapReport(message)) return;
      clearTimeout(timer);
      child.off('message', listen);
      resolve(message);
    };
    child.on('message', listen);
    child.send({ probe: 'gc' });
  });
}

export function isHeapReport(message: unknown): message is HeapReport {
  return typeof message === 'object' && message !== null && (message as { probe?: unknown }).probe === 'heap';
}

export function isLoopReport(message: unknown): message is LoopReport {
  return typeof message === 'object' && message !== null && (message as { probe?: unknown }).probe === 'loop';
}

const TICKS = 100;

/** CPU seconds (user + system) and peak resident memory of a process, from /proc. */
export async function usage(pid: number): Promise<{ cpuSeconds: number; peakRssMb: number; rssMb: number }> {
  const stat = (await readFile(`/proc/${String(pid)}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  const cpuSeconds = (Number(stat[11]) + Number(stat[12])) / TICKS;
  const status = await readFile(`/proc/${String(pid)}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { cpuSeconds, peakRssMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
