/** Retention of live data (raw rows, hourly and daily roll-ups) and, on PostgreSQL, monthly partitions of raw history. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { buildDevice } from './factories.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../src/modules/telemetry/telemetry-write.repository.ts';
import { ensureRawPartitions, monthOf, rawPartitions } from '../src/db/telemetry-partitions.ts';
import { RetentionJob } from '../src/modules/telemetry/retention.job.ts';
import { ThreadedWriteRepository } from '../src/modules/telemetry/threaded-write.repository.ts';
import type { IngestMessage } from '../src/modules/telemetry/ingest-writer.ts';

const DAY = 86_400_000;

describe.each(databaseKinds)('retention of live data on %s', (kind) => {
  let t: TestApp;
  let g: number;
  const now = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { HISTORY_RAW_DAYS: '30', HISTORY_HOURLY_DAYS: '60', HISTORY_DAILY_DAYS: '0' });
    g = 1;
    await buildDevice(t.app.ctx, { groupId: g, sn: 'SL0000000101' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('deletes raw rows and roll-ups past their retention and keeps the rest', async () => {
    const { db, dialect } = t.app.ctx;
    if (dialect === 'postgres') await ensureRawPartitions(db, now - 120 * DAY, 0, 0);
    const writer = new TelemetryWriteRepository(db, dialect, 480);
    const point = (ts: number, num: number): BatchPoint => ({
      groupId: g,
      deviceSn: 'SL0000000101',
      key: 'Kept',
      defined: true,
      ts,
      num,
      txt: null,
    });
    await writer.commit([point(now - 120 * DAY, 1), point(now - 45 * DAY, 2), point(now - 10 * DAY, 3), point(now - DAY, 4)], []);
    const report = await t.app.live.retention.run(now);
    expect(report.ran).toBe(true);
    const series = await db.selectFrom('telemetry_series').select('id').where('data_key', '=', 'Kept').executeTakeFirstOrThrow();
    const raw = await db.selectFrom('telemetry_raw').select('num').where('series_id', '=', series.id).orderBy('ts').execute();
    expect(raw.map((r) => r.num)).toEqual([3, 4]);
    const hourly = await db
      .selectFrom('telemetry_hourly')
      .select('sum')
      .where('series_id', '=', series.id)
      .orderBy('bucket')
      .execute();
    expect(hourly.map((r) => r.sum)).toEqual([2, 3, 4]);
    const daily = await db
      .selectFrom('telemetry_daily')
      .select('sum')
      .where('series_id', '=', series.id)
      .orderBy('bucket')
      .execute();
    expect(daily.map((r) => r.sum)).toEqual([1, 2, 3, 4]);
    // A long-range chart still has the expired months, from the daily roll-ups.
    const token = await t.login(ADMIN.account, ADMIN.password);
    const chart = await t.call({
      method: 'GET',
      url: `/api/device/SL0000000101/DeviceHisData?BeginTime=${String(now - 200 * DAY)}&Keys=Kept&Type=day`,
      token,
    });
    expect(chart.json<{ data: { Series: { Points: [number, number][] }[] } }>().data.Series[0]?.Points.map((p) => p[1])).toEqual([
      1, 2, 3, 4,
    ]);
    if (dialect === 'postgres') {
      const names = (await rawPartitions(db)).map((p) => p.name);
      expect(report.partitionsDropped).toContain(monthOf(now - 120 * DAY).name);
      expect(names).not.toContain(monthOf(now - 120 * DAY).name);
      for (let ahead = 0; ahead <= 3; ahead++) expect(names).toContain(monthOf(now, ahead).name);
    }
  });

  it('deletes in chunks, series by series, until nothing expired is left', async () => {
    const { db, dialect } = t.app.ctx;
    if (dialect === 'postgres') await ensureRawPartitions(db, now - 120 * DAY, 0, 0);
    const writer = new TelemetryWriteRepository(db, dialect, 480);
    const keys = ['Ch1', 'Ch2', 'Ch3'];
    const old = Array.from({ length: 10 }, (_, i) => now - 40 * DAY - i * 60_000);
    await writer.commit(
      keys.flatMap((key) =>
        [...old, now - DAY].map((ts) => ({ groupId: g, deviceSn: 'SL0000000101', key, defined: true, ts, num: 1, txt: null })),
      ),
      [],
    );
    // Chunks of 4 rows: each series needs three, and the job goes on to the next.
    const job = new RetentionJob(
      db,
      dialect,
      { HISTORY_RAW_DAYS: 30, HISTORY_HOURLY_DAYS: 0, HISTORY_DAILY_DAYS: 0, AUDIT_RETENTION_DAYS: 0 },
      t.app.log,
      { chunkRows: 4 },
    );
    const report = await job.run(now);
    expect(report.raw).toBe(30);
    const left = await db
      .selectFrom('telemetry_raw')
      .innerJoin('telemetry_series as s', 's.id', 'telemetry_raw.series_id')
      .select(['s.data_key', 'ts'])
      .where('s.data_key', 'in', keys)
      .orderBy('s.data_key')
      .execute();
    expect(left).toEqual(keys.map((key) => ({ data_key: key, ts: now - DAY })));
  });

  it.runIf(kind === 'sqlite')(
    "on SQLite deletes in the ingest writer's thread, a chunk at a time between its batches",
    async () => {
      const { db, dialect, config } = t.app.ctx;
      const thread = new ThreadedWriteRepository(path.join(config.DATA_DIR, 'sluice.db'), 480, (error) => {
        throw error;
      });
      try {
        // A message of these keys at these times, a value of 1 each.
        const message = (keys: string[], ts: number[]): IngestMessage => ({
          groupId: g,
          deviceSn: 'SL0000000101',
          keys,
          ts,
          num: keys.map(() => 1),
          txt: undefined,
          defined: keys.map(() => 1),
          bytes: 0,
        });
        const old = Array.from({ length: 20 }, (_, i) => now - 40 * DAY - i * 60_000);
        await thread.commit([
          message(
            old.map(() => 'Th1'),
            old,
          ),
          message(
            old.map(() => 'Th2'),
            old,
          ),
        ]);
        const job = new RetentionJob(
          db,
          dialect,
          { HISTORY_RAW_DAYS: 30, HISTORY_HOURLY_DAYS: 0, HISTORY_DAILY_DAYS: 0, AUDIT_RETENTION_DAYS: 0 },
          t.app.log,
          { chunkRows: 4, expired: thread },
        );
        const finished: string[] = [];
        const run = job.run(now).then((report) => {
          finished.push('retention');
          return report;
        });
        // A batch sent while the thread deletes commits after the chunk under way, not after the job
        // (one delete, or the job's chunks queued at once, would answer first).
        const batch = thread.commit([message(['Th3'], [now])]).then(() => finished.push('batch'));
        const [report] = await Promise.all([run, batch]);
        expect(report.raw).toBe(40);
        expect(finished).toEqual(['batch', 'retention']);
        const left = await db
          .selectFrom('telemetry_raw')
          .innerJoin('telemetry_series as s', 's.id', 'telemetry_raw.series_id')
          .select('s.data_key')
          .where('s.data_key', 'in', ['Th1', 'Th2', 'Th3'])
          .execute();
        expect(left).toEqual([{ data_key: 'Th3' }]);
      } finally {
        await thread.close();
      }
    },
  );

  it.runIf(kind === 'postgres')('moves rows that landed in the default partition into a new month partition', async () => {
    const { db, dialect } = t.app.ctx;
    const far = Date.UTC(2031, 4, 15);
    const writer = new TelemetryWriteRepository(db, dialect, 480);
    await writer.commit([{ groupId: g, deviceSn: 'SL0000000101', key: 'Future', defined: true, ts: far, num: 9, txt: null }], []);
    const made = await ensureRawPartitions(db, far, 0, 0);
    expect(made).toEqual([monthOf(far).name]);
    const series = await db
      .selectFrom('telemetry_series')
      .select('id')
      .where('data_key', '=', 'Future')
      .executeTakeFirstOrThrow();
    expect(
      (await db.selectFrom('telemetry_raw').select('num').where('series_id', '=', series.id).execute()).map((r) => r.num),
    ).toEqual([9]);
  });
});
