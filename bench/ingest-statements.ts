/**
 * Which storage statements cost least: the write repository commits fleet-shaped batches (each
 * message one device's POINTS points, one point per series per batch, BATCH messages a batch)
 * for SECONDS seconds per variant, on a fresh database each, after a first pass that creates
 * every series. Variants on SQLite: the json_each bulk statements through Kysely, prepared
 * statements row by row, and multi-row VALUES of 50 and 200 rows; on PostgreSQL
 * (BENCH_DATABASE_URL) the unnest bulk statements. Prints points per second and per CPU-second
 * of this process (on SQLite all of the work; on PostgreSQL the server's own CPU is apart).
 *
 *   npm run bench:statements                  # DEVICES=2000 POINTS=50 BATCH=100 SECONDS=10
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteConnection } from '../apps/server/src/db/node-sqlite-dialect.ts';
import { openDatabase, type Db } from '../apps/server/src/db/database.ts';
import { createTenant } from '../apps/server/src/modules/groups/tenancy.service.ts';
import { SqliteWriteStatements } from '../apps/server/src/modules/telemetry/sqlite-write.statements.ts';
import {
  TelemetryWriteRepository,
  type BatchPoint,
  type LatestUpdate,
} from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';
import { benchPgDatabase } from './live-server.ts';

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
  await opened.close();
  await rm(dir, { recursive: true, force: true });
  console.log(
    `  ${variant.name.padEnd(34)} ${Math.round(points / wall)
      .toLocaleString('en-US')
      .padStart(9)} points/s, ${Math.round(points / ((cpu.user + cpu.system) / 1e6))
      .toLocaleString('en-US')
      .padStart(9)} per CPU-second, ${((wall * 1000) / commits).toFixed(1)} ms a commit of ${String(BATCH * POINTS)} points`,
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
const pg = await benchPgDatabase();
if (pg)
  variants.push({
    name: 'PostgreSQL, unnest bulk (Kysely)',
    open: async (dir) => {
      const database = await openDatabase({ dataDir: dir, databaseUrl: pg.url });
      return {
        db: database.db,
        repository: new TelemetryWriteRepository(database.db, 'postgres', 480),
        close: () => database.close(),
      };
    },
  });

console.log(
  `Storage statements: batches of ${String(BATCH)} messages × ${String(POINTS)} points over ${String(DEVICES)} devices, one point per series per batch, ${String(SECONDS)} s each; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const variant of variants) await measure(variant);
await pg?.drop();
console.log(`  load at the end ${loadavg()[0]?.toFixed(2) ?? ''}`);
