/**
 * History query: one data point stored once a minute for a year (525,600 raw rows, written
 * through the ingestion's batch writer, so the hourly and daily roll-ups are built as in
 * production), then the whole year drawn as a chart: the server call `DeviceHisData` timed
 * in-process (Fastify inject, no network), after a warm-up. Also timed for comparison: the same
 * year from raw rows (Type=raw, min/max downsampling of all 525,600), and one week (raw rows).
 * SQLite by default; PostgreSQL with BENCH_DATABASE_URL.
 *
 *   npm run bench:history
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { bootstrap } from '../apps/server/src/seed/bootstrap.ts';
import { hashDeviceSecret } from '../apps/server/src/modules/devices/device-credentials.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';
import { ADMIN, percentile } from './live-server.ts';

const ROWS = 525_600;
const RUNS = Number(process.env.RUNS ?? 30);
const databaseUrl = process.env.BENCH_DATABASE_URL;

let pgDb: { url: string; name: string } | undefined;
if (databaseUrl) {
  const name = `sluice_bench_${String(Date.now())}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  pgDb = { url: url.toString(), name };
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-bench-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) });
const database = await openDatabase({ dataDir, databaseUrl: config.DATABASE_URL });
const app = await buildApp({ config, database, logger: false });
await bootstrap(app.ctx);
await app.ready();
const { db, dialect } = app.ctx;
const groupId = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow()).group_id;
const sn = 'BENCHHIS0001';
const now = Date.now();
await db
  .insertInto('devices')
  .values({ group_id: groupId, device_sn: sn, device_no: '', device_name: 'History bench', device_description: '', type_id: null, project_id: null, region_id: null, area_id: null, position: '', address: '', online: 0, last_seen: null, secret_hash: hashDeviceSecret('x'), created_at: now, updated_at: now, deleted_at: null, deleted_by: null })
  .execute();

const end = Math.floor(now / 60_000) * 60_000;
const start = end - ROWS * 60_000;
console.log(`Writing ${ROWS.toLocaleString('en-US')} points (one a minute for a year) on ${dialect}…`);
const writer = new TelemetryWriteRepository(db, dialect, 480);
const fillStarted = performance.now();
for (let i = 0; i < ROWS; i += 20_000) {
  const points: BatchPoint[] = [];
  for (let j = i; j < Math.min(ROWS, i + 20_000); j++) {
    const ts = start + j * 60_000;
    const day = (ts / 86_400_000) % 1;
    points.push({ groupId, deviceSn: sn, key: 'Level', defined: true, ts, num: Math.round((1.6 + Math.sin(day * 2 * Math.PI) * 0.8 + Math.random() * 0.1) * 1000) / 1000, txt: null });
  }
  await writer.commit(points, []);
}
console.log(`  written in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);

const login = await app.inject({ method: 'POST', url: '/api/User', payload: { Account: ADMIN.account, Password: ADMIN.password } });
const token = login.json<{ data: { Token: string } }>().data.Token;

async function time(label: string, query: string, runs: number): Promise<void> {
  const url = `/api/${String(groupId)}/${sn}/DeviceHisData?${query}`;
  let info = '';
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    times.push(performance.now() - t0);
    if (i === 0) {
      const body = res.json<{ data: { Source: string; Downsampled: string; Series: { Points: unknown[]; Count: number }[] } }>().data;
      info = `source ${body.Source}, ${String(body.Series[0]?.Count ?? 0)} rows → ${String(body.Series[0]?.Points.length ?? 0)} points (${body.Downsampled}), ${(res.body.length / 1024).toFixed(0)} kB`;
    }
  }
  times.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(36)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms   ${info}`);
}

console.log(`DeviceHisData on ${dialect}, ${String(RUNS)} runs each after a warm-up:`);
await time('whole year, chart (Type=auto)', `BeginTime=${String(start)}&EndTime=${String(end)}&Keys=Level`, RUNS);
await time('whole year from raw rows (Type=raw)', `BeginTime=${String(start)}&EndTime=${String(end)}&Keys=Level&Type=raw`, Math.max(3, Math.floor(RUNS / 6)));
await time('last 7 days (raw rows)', `BeginTime=${String(end - 7 * 86_400_000)}&EndTime=${String(end)}&Keys=Level`, RUNS);
await time('last 24 hours (raw rows)', `BeginTime=${String(end - 86_400_000)}&EndTime=${String(end)}&Keys=Level`, RUNS);

await app.close();
if (pgDb) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${pgDb.name} WITH (FORCE)`);
  await admin.end();
}
await rm(dataDir, { recursive: true, force: true });
