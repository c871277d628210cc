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
import { hashDeviceSecret } from '../apps/server/src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../apps/server/src/modules/devices/devices.repository.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';
import { ADMIN, benchPgDatabase, percentile } from './live-server.ts';
import { startInProcess } from './in-process.ts';

const ROWS = 525_600;
const RUNS = Number(process.env.RUNS ?? 30);
const pgDb = await benchPgDatabase();

const server = await startInProcess(pgDb ? { DATABASE_URL: pgDb.url } : {});
const { app } = server;
await app.ready();
const { db, dialect } = app.ctx;
const groupId = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow())
  .group_id;
const sn = 'BENCHHIS0001';
const now = Date.now();
await db
  .insertInto('devices')
  .values(
    newDeviceRow({ group_id: groupId, device_sn: sn, device_name: 'History bench', secret_hash: hashDeviceSecret('x') }, now),
  )
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
    points.push({
      groupId,
      deviceSn: sn,
      key: 'Level',
      defined: true,
      ts,
      num: Math.round((1.6 + Math.sin(day * 2 * Math.PI) * 0.8 + Math.random() * 0.1) * 1000) / 1000,
      txt: null,
    });
  }
  await writer.commit(points, []);
}
console.log(`  written in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);

const login = await app.inject({
  method: 'POST',
  url: '/api/User',
  payload: { Account: ADMIN.account, Password: ADMIN.password },
});
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
      const body = res.json<{ data: { Source: string; Downsampled: string; Series: { Points: unknown[]; Count: number }[] } }>()
        .data;
      info = `source ${body.Source}, ${String(body.Series[0]?.Count ?? 0)} rows → ${String(body.Series[0]?.Points.length ?? 0)} points (${body.Downsampled}), ${(res.body.length / 1024).toFixed(0)} kB`;
    }
  }
  times.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(36)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms   ${info}`,
  );
}

console.log(`DeviceHisData on ${dialect}, ${String(RUNS)} runs each after a warm-up:`);
await time('whole year, chart (Type=auto)', `BeginTime=${String(start)}&EndTime=${String(end)}&Keys=Level`, RUNS);
await time(
  'whole year from raw rows (Type=raw)',
  `BeginTime=${String(start)}&EndTime=${String(end)}&Keys=Level&Type=raw`,
  Math.max(3, Math.floor(RUNS / 6)),
);
await time('last 7 days (raw rows)', `BeginTime=${String(end - 7 * 86_400_000)}&EndTime=${String(end)}&Keys=Level`, RUNS);
await time('last 24 hours (raw rows)', `BeginTime=${String(end - 86_400_000)}&EndTime=${String(end)}&Keys=Level`, RUNS);

await server.close();
await pgDb?.drop();
