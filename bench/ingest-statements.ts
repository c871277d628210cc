/**
 * Which storage statements cost least: the write repository commits fleet-shaped batches (each
 * message one device's POINTS points, one point per series per batch, BATCH messages a batch)
 * for SECONDS seconds per variant, on a fresh database each, after a first pass that creates
 * every series. Variants on SQLite: the json_each bulk statements through Kysely, prepared
 * statements row by row, and multi-row VALUES of 50 and 200 rows; on PostgreSQL
 * (BENCH_DATABASE_URL) the server's unnest bulk statements, prepared 200-row VALUES and COPY
 * into temporary tables (pg-write-statements.ts), each on a fresh database. Prints points per
 * second and per CPU-second of this process (on SQLite all of the work; on PostgreSQL the
 * server's own CPU is apart, so points per wall second and PostgreSQL's CPU count there).
 *
 *   npm run bench:statements                  # DEVICES=2000 POINTS=50 BATCH=100 SECONDS=10
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteConnection } from '../apps/server/src/db/node-sqlite-dialect.ts';
import { openDatabase, openPgPool, type Db } from '../apps/server/src/db/database.ts';
import { createTenant } from '../apps/server/src/modules/groups/tenancy.service.ts';
import { SqliteWriteStatements } from '../apps/server/src/modules/telemetry/sqlite-write.statements.ts';
import {
  TelemetryWriteRepository,
  type BatchPoint,
  type LatestUpdate,
} from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';
import pg from 'pg';
import { benchPgDatabase } from './live-server.ts';
import { PgClientStatements } from './pg-write-statements.ts';

const DEVICES = Number(process.env.DEVICES ?? 2000);
const POINTS = Number(process.env.POINTS ?? 50);
const BATCH = Number(process.env.BATCH ?? 100);
const SECONDS = Number(process.env.SECONDS ?? 10);
const keys = Array.from({ length: POINTS }, (_, i) => `P${String(i).padStart(2, '0')}`);
const sns = Array.from({ length: DEVICES }, (_, i) => `BS${String(i).padStart(8, '0')}`);

interface Variant {
  name: string;
  open(dir: string): Promise<{ db: Db; repository: TelemetryWriteRepository; close(): Promise<void> }>;
}

async function measure(variant: Variant): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sluice-statements-'));
  const opened = await variant.open(dir);
  const { db, repository } = opened;
  const { groupId } = await createTenant(db, {
    groupName: 'Bench',
    code: 'bench',
    adminAccount: 'admin',
    adminPassword: 'Admin12345',
    platformAdmin: true,
  });
  let ts = Date.now() - 86_400_000;
  let next = 0;
  const batch = (): { points: BatchPoint[]; latest: LatestUpdate[] } => {
    const points: BatchPoint[] = [];
    const latest: LatestUpdate[] = [];
    for (let m = 0; m < BATCH; m++) {
      const sn = sns[next] ?? '';
      const data: Record<string, number> = {};
      for (const key of keys) {
        const num = Math.round(Math.random() * 10_000) / 100;
        points.push({ groupId, deviceSn: sn, key, defined: true, ts, num, txt: null });
        data[key] = num;
      }
      latest.push({ groupId, deviceSn: sn, ts, data });
      next += 1;
      if (next === sns.length) {
        next = 0;
        ts += 10_000;
      }
    }
    return { points, latest };
  };
  // A first pass creates every series (a fleet's steady state has them).
  for (let i = 0; i < Math.ceil(DEVICES / BATCH); i++) {
    const { points, latest } = batch();
    await repository.commit(points, latest);
  }
  let points = 0;
  let commits = 0;
  const pgCpu0 = variant.name.startsWith('PostgreSQL') ? await postgresCpu() : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < SECONDS * 1000) {
    const b = batch();
    await repository.commit(b.points, b.latest);
    points += b.points.length;
    commits += 1;
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const pgCpu1 = pgCpu0 === undefined ? undefined : await postgresCpu();
  const pgSeconds = pgCpu0 && pgCpu1 ? postgresCpuBetween(pgCpu0, pgCpu1) : 0;
  const pgLine =
    pgSeconds > 0
      ? `, ${Math.round(points / pgSeconds).toLocaleString('en-US')} per CPU-second of PostgreSQL, ${Math.round(points / (pgSeconds + (cpu.user + cpu.system) / 1e6)).toLocaleString('en-US')} per CPU-second of both`
      : '';
  await opened.close();
  await rm(dir, { recursive: true, force: true });
  console.log(
    `  ${variant.name.padEnd(34)} ${Math.round(points / wall)
      .toLocaleString('en-US')
      .padStart(9)} points/s, ${Math.round(points / ((cpu.user + cpu.system) / 1e6))
      .toLocaleString('en-US')
      .padStart(
        9,
      )} per CPU-second, ${((wall * 1000) / commits).toFixed(1)} ms a commit of ${String(BATCH * POINTS)} points${pgLine}`,
  );
}

const sqliteNative = (rows: number): Variant => ({
  name: rows === 1 ? 'SQLite, prepared, row by row' : `SQLite, prepared, ${String(rows)}-row VALUES`,
  open: async (dir) => {
    const database = await openDatabase({ dataDir: dir });
    const native = openSqliteConnection(path.join(dir, 'sluice.db'));
    return {
      db: database.db,
      repository: new TelemetryWriteRepository(new SqliteWriteStatements(native, rows), 'sqlite', 480),
      close: async () => {
        native.close();
        await database.close();
      },
    };
  },
});

const variants: Variant[] = [
  {
    name: 'SQLite, json_each bulk (Kysely)',
    open: async (dir) => {
      const database = await openDatabase({ dataDir: dir });
      return {
        db: database.db,
        repository: new TelemetryWriteRepository(database.db, 'sqlite', 480),
        close: () => database.close(),
      };
    },
  },
  sqliteNative(1),
  sqliteNative(50),
  sqliteNative(200),
];
const pgServer = process.env.BENCH_DATABASE_URL;
/** PostgreSQL's processes' CPU seconds so far by pid (when it runs on this machine), from /proc. */
const postgresCpu = async (): Promise<Map<number, number> | undefined> => {
  try {
    const { execFileSync } = await import('node:child_process');
    const { readFileSync } = await import('node:fs');
    const pids = execFileSync('ps', ['-C', 'postgres', '-o', 'pid='], { encoding: 'utf8' }).split('\n').map(Number);
    const seconds = new Map<number, number>();
    for (const pid of pids.filter((p) => p > 0)) {
      try {
        const stat =
          readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
            .split(') ')[1]
            ?.split(' ') ?? [];
        seconds.set(pid, (Number(stat[11]) + Number(stat[12])) / 100);
      } catch {
        // ended meanwhile
      }
    }
    return seconds;
  } catch {
    return undefined;
  }
};
/** CPU seconds PostgreSQL's processes used between two readings (those ended meanwhile are not counted). */
const postgresCpuBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, s]) => sum + s - (before.get(pid) ?? 0), 0);
const pgVariant = (
  name: string,
  repository: (url: string) => Promise<{ repository: TelemetryWriteRepository; close(): Promise<void> }>,
): Variant => ({
  name,
  open: async (dir) => {
    const scratch = await benchPgDatabase();
    if (!scratch) throw new Error('BENCH_DATABASE_URL is not set');
    const database = await openDatabase({ dataDir: dir, databaseUrl: scratch.url });
    const made = await repository(scratch.url);
    return {
      db: database.db,
      repository: made.repository,
      close: async () => {
        await made.close();
        await database.close();
        await scratch.drop();
      },
    };
  },
});
const pgClientVariant = (mode: 'values' | 'copy'): Variant =>
  pgVariant(mode === 'values' ? 'PostgreSQL, prepared 200-row VALUES' : 'PostgreSQL, COPY into temp tables', async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      repository: new TelemetryWriteRepository(new PgClientStatements(client, mode), 'postgres', 480),
      close: () => client.end(),
    };
  });
if (pgServer)
  variants.push(
    pgVariant('PostgreSQL, unnest bulk (Kysely)', (url) => {
      const pool = openPgPool(url, 1);
      return Promise.resolve({ repository: new TelemetryWriteRepository(pool, 'postgres', 480), close: () => pool.destroy() });
    }),
    pgClientVariant('values'),
    pgClientVariant('copy'),
  );
if (process.env.ONLY === 'postgres') variants.splice(0, 4);

console.log(
  `Storage statements: batches of ${String(BATCH)} messages × ${String(POINTS)} points over ${String(DEVICES)} devices, one point per series per batch, ${String(SECONDS)} s each; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const variant of variants) await measure(variant);
console.log(`  load at the end ${loadavg()[0]?.toFixed(2) ?? ''}`);
