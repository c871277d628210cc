/**
 * Charts and statistics as the store grows. One device with ten data points read every five
 * minutes (105,120 raw rows a point a year) is filled backwards in three steps — the last month,
 * then the rest of the year, then two more years — and after each step these are timed in-process
 * (Fastify inject, no network), after a warm-up:
 *
 * - a year chart of one point (`DeviceHisData`, Type=auto),
 * - ten points for a year in one call, as the console asks for them (Layout=columns) and in the
 *   default rows layout,
 * - a month of daily statistics for 100 stations (`DeviceStatisticsData` over a project of 100
 *   stations, one device each: a treated-water counter and an effluent COD held to 50 mg/L with a
 *   range filter, a COD spike on every seventh day so that the hour-by-hour path runs too), and
 *   the same stations' panel figures (`GetRegionStatisticsDevice`).
 *
 * The stations' month is written once, before the first step. Each figure is the median and the
 * worst of RUNS calls; the bare database's read of the same roll-up rows is timed beside the
 * statistics call as its ceiling. SQLite by default; PostgreSQL with BENCH_DATABASE_URL.
 *
 *   npm run bench:statistics
 */
import { loadavg } from 'node:os';
import { hashDeviceSecret } from '../apps/server/src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../apps/server/src/modules/devices/devices.repository.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';
import { ensureRawPartitions } from '../apps/server/src/db/telemetry-partitions.ts';
import { ADMIN, benchPgDatabase, percentile } from './live-server.ts';
import { startInProcess } from './in-process.ts';

const RUNS = Number(process.env.RUNS ?? 20);
const STATIONS = 100;
const KEYS = 10;
const STEP = 5 * 60_000;
const DAY = 86_400_000;
const pgDb = await benchPgDatabase();

const server = await startInProcess(pgDb ? { DATABASE_URL: pgDb.url } : {});
const { app } = server;
await app.ready();
const { db, dialect } = app.ctx;
const offset = app.live.offsetMinutes;
const groupId = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow())
  .group_id;
const writer = new TelemetryWriteRepository(db, dialect, offset);
const now = Date.now();
const end = Math.floor(now / STEP) * STEP;

async function write(points: BatchPoint[]): Promise<void> {
  for (let i = 0; i < points.length; i += 20_000) await writer.commit(points.slice(i, i + 20_000), []);
}

// ---- The 100 stations: a project, its stations, a type with two statistics, a device each ----
const { id: typeId } = await db
  .insertInto('device_types')
  .values({ group_id: groupId, type_name: 'Bench station', parent_id: 0, status: 1 })
  .returning('id')
  .executeTakeFirstOrThrow();
for (const [key, kind, standard, filter] of [
  ['FlowTotal', 'cumulative', '', '0,100000'],
  ['COD_Out', 'discrete', '50', '0,1000'],
] as const) {
  const { id } = await db
    .insertInto('data_defines')
    .values({ group_id: groupId, data_key: key, data_name: key, data_type: 'readable' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('type_statistics')
    .values({
      group_id: groupId,
      type_id: typeId,
      stat_key: key,
      data_define_id: id,
      statics_type: kind,
      standard,
      filter_value: filter,
      filter_type: 'range',
      name: key,
    })
    .execute();
}
const made = Date.now();
const { id: projectId } = await db
  .insertInto('projects')
  .values({
    group_id: groupId,
    name: 'Bench project',
    project_type: 0,
    parent_id: 0,
    address: '',
    position: '',
    created_at: made,
    updated_at: made,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const month = Math.floor((end - 30 * DAY) / STEP) * STEP;
if (dialect === 'postgres') await ensureRawPartitions(db, end - 3 * 366 * DAY, 1, 40);
console.log(`Writing a month for ${String(STATIONS)} stations (2 points every 5 minutes) on ${dialect}…`);
let started = performance.now();
for (let s = 0; s < STATIONS; s++) {
  const { id: stationId } = await db
    .insertInto('projects')
    .values({
      group_id: groupId,
      name: `Bench station ${String(s)}`,
      project_type: 1,
      parent_id: projectId,
      address: '',
      position: '',
      created_at: made,
      updated_at: made,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sn = `BENCHST${String(s).padStart(5, '0')}`;
  await db
    .insertInto('devices')
    .values(
      newDeviceRow(
        {
          group_id: groupId,
          device_sn: sn,
          device_name: sn,
          type_id: typeId,
          project_id: stationId,
          secret_hash: hashDeviceSecret('x'),
        },
        made,
      ),
    )
    .execute();
  const points: BatchPoint[] = [];
  let counter = Math.random() * 50_000;
  for (let ts = month; ts < end; ts += STEP) {
    counter += 0.35 + Math.random() * 0.1;
    const day = Math.floor((ts - month) / DAY);
    const spike = day % 7 === 3 && (ts - month) % DAY === 10 * 3_600_000;
    points.push({ groupId, deviceSn: sn, key: 'FlowTotal', defined: true, ts, num: Math.round(counter * 100) / 100, txt: null });
    points.push({
      groupId,
      deviceSn: sn,
      key: 'COD_Out',
      defined: true,
      ts,
      num: spike ? 5000 : 30 + Math.random() * 15,
      txt: null,
    });
  }
  await write(points);
}
console.log(`  written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// ---- The charted device: ten points every five minutes, filled backwards ----
const sn = 'BENCHCHART01';
await db
  .insertInto('devices')
  .values(
    newDeviceRow({ group_id: groupId, device_sn: sn, device_name: 'Chart bench', secret_hash: hashDeviceSecret('x') }, made),
  )
  .execute();
async function fill(from: number, to: number): Promise<number> {
  let rows = 0;
  for (let chunk = from; chunk < to; chunk += 30 * DAY) {
    const points: BatchPoint[] = [];
    for (let ts = chunk; ts < Math.min(to, chunk + 30 * DAY); ts += STEP) {
      const phase = (ts / DAY) % 1;
      for (let k = 0; k < KEYS; k++)
        points.push({
          groupId,
          deviceSn: sn,
          key: `P${String(k)}`,
          defined: true,
          ts,
          num: Math.round((10 * k + Math.sin(phase * 2 * Math.PI) * 3 + Math.random()) * 1000) / 1000,
          txt: null,
        });
    }
    rows += points.length;
    await write(points);
  }
  return rows;
}

const login = await app.inject({
  method: 'POST',
  url: '/api/User',
  payload: { Account: ADMIN.account, Password: ADMIN.password },
});
const token = login.json<{ data: { Token: string } }>().data.Token;
const headers = { authorization: `Bearer ${token}` };

async function time(label: string, url: string, describe: (body: unknown) => string): Promise<{ p50: number; worst: number }> {
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url, headers });
  const times: number[] = [];
  let info = '';
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${label}: ${String(res.statusCode)} ${res.body.slice(0, 200)}`);
    if (i === 0) info = `${describe(res.json<{ data: unknown }>().data)}, ${(res.body.length / 1024).toFixed(0)} kB`;
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const worst = times.at(-1) ?? NaN;
  console.log(`  ${label.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms   worst ${worst.toFixed(1).padStart(7)} ms   ${info}`);
  return { p50, worst };
}

/** The ceiling of the statistics call: the bare read of the roll-up rows it starts from. */
async function bareRollups(): Promise<void> {
  const ids = (await db.selectFrom('telemetry_series').select('id').where('device_sn', 'like', 'BENCHST%').execute()).map(
    (r) => r.id,
  );
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now();
    await db
      .selectFrom('telemetry_daily')
      .selectAll()
      .where('series_id', 'in', ids)
      .where('bucket', '>=', month - DAY)
      .where('bucket', '<', end)
      .execute();
    if (i >= 3) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `  ${'ceiling: bare read of those daily roll-ups'.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   worst ${(times.at(-1) ?? NaN).toFixed(1).padStart(7)} ms`,
  );
}

const chart = (body: unknown) => {
  const b = body as { Source: string; Series: { Count: number; Points?: unknown[]; Times?: unknown[] }[] };
  const rows = b.Series.reduce((n, s) => n + s.Count, 0);
  const points = b.Series.reduce((n, s) => n + (s.Points ?? s.Times ?? []).length, 0);
  return `${String(b.Series.length)} series, source ${b.Source}, ${rows.toLocaleString('en-US')} rows → ${points.toLocaleString('en-US')} points`;
};
const date = (ts: number) => new Date(ts + offset * 60_000).toISOString().slice(0, 10);
const steps: [string, number][] = [
  ['1 month', end - 30 * DAY],
  ['1 year', end - 365 * DAY],
  ['3 years', end - 3 * 365 * DAY],
];
let filledFrom = end;
for (const [label, from] of steps) {
  started = performance.now();
  const rows = await fill(from, filledFrom);
  filledFrom = from;
  console.log(
    `\nStore holds ${label} of the charted device (${rows.toLocaleString('en-US')} rows added in ${((performance.now() - started) / 1000).toFixed(1)} s); ${String(RUNS)} runs each, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}:`,
  );
  const year = `BeginTime=${String(end - 365 * DAY)}&EndTime=${String(end)}`;
  await time('year chart, one point', `/api/${String(groupId)}/${sn}/DeviceHisData?${year}&Keys=P0`, chart);
  const tenKeys = `Keys=${Array.from({ length: KEYS }, (_, k) => `P${String(k)}`).join(',')}`;
  await time(
    'year chart, ten points, columns (console)',
    `/api/${String(groupId)}/${sn}/DeviceHisData?${year}&${tenKeys}&Layout=columns`,
    chart,
  );
  await time('year chart, ten points, rows (default)', `/api/${String(groupId)}/${sn}/DeviceHisData?${year}&${tenKeys}`, chart);
  await time(
    'month of daily statistics, 100 stations',
    `/api/${String(groupId)}/DeviceStatisticsData?Begin=${date(month)}&End=${date(end - 1)}&ProjectId=${String(projectId)}`,
    (body) => `${String((body as unknown[]).length)} device-days`,
  );
  await time(
    'panel figures of 100 stations (region call)',
    `/api/Device/GetRegionStatisticsDevice?ProjectId=${String(projectId)}`,
    (body) => `${String((body as { Sites: unknown[] }).Sites.length)} stations`,
  );
  await bareRollups();
}

await server.close();
await pgDb?.drop();
