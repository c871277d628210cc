/**
 * The ingest writer's two kinds of statements store the same thing: the json_each bulk
 * statements through Kysely, and the prepared multi-row statements of the writer's thread on
 * its own node:sqlite connection (with 1, 3 and 200 rows a statement) — raw rows, hourly and
 * daily roll-ups (merged, and recounted after a re-delivered message), latest values.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { buildDevice } from './factories.ts';
import { openSqliteConnection } from '../src/db/node-sqlite-dialect.ts';
import { SqliteWriteStatements } from '../src/modules/telemetry/sqlite-write.statements.ts';
import {
  TelemetryWriteRepository,
  type BatchPoint,
  type LatestUpdate,
} from '../src/modules/telemetry/telemetry-write.repository.ts';

const HOUR = 3_600_000;

describe('telemetry write statements on SQLite', () => {
  let t: TestApp;
  const natives: { close(): void }[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    for (const n of natives) n.close();
    await t.close();
  });

  /** What is stored of a device: raw rows, roll-ups and latest values, without ids. */
  const stored = async (sn: string) => {
    const db = t.app.ctx.db;
    const series = db.selectFrom('telemetry_series').select('id').where('device_sn', '=', sn);
    const raw = await db
      .selectFrom('telemetry_raw')
      .innerJoin('telemetry_series as s', 's.id', 'telemetry_raw.series_id')
      .select(['s.data_key', 'ts', 'num', 'txt'])
      .where('s.device_sn', '=', sn)
      .orderBy('s.data_key')
      .orderBy('ts')
      .execute();
    const rollups = async (table: 'telemetry_hourly' | 'telemetry_daily') =>
      db
        .selectFrom(table)
        .innerJoin('telemetry_series as s', 's.id', `${table}.series_id`)
        .select(['s.data_key', 'bucket', 'cnt', 'sum', 'min', 'max', 'first_ts', 'first', 'last_ts', 'last'])
        .where(`${table}.series_id`, 'in', series)
        .orderBy('s.data_key')
        .orderBy('bucket')
        .execute();
    const latest = await db.selectFrom('device_latest').select(['ts', 'data']).where('device_sn', '=', sn).executeTakeFirst();
    return {
      raw,
      hourly: await rollups('telemetry_hourly'),
      daily: await rollups('telemetry_daily'),
      latest: latest && { ts: latest.ts, data: JSON.parse(latest.data) as unknown },
    };
  };

  /** Three batches: two messages in one hour, then a re-delivered one with a new one, then an older record. */
  const write = async (repository: TelemetryWriteRepository, sn: string) => {
    const base = Math.floor(Date.now() / HOUR) * HOUR - 48 * HOUR;
    const point = (key: string, ts: number, num: number | null, txt: string | null = null): BatchPoint => ({
      groupId: 1,
      deviceSn: sn,
      key,
      defined: true,
      ts,
      num,
      txt,
    });
    const latest = (ts: number, data: Record<string, number | string>): LatestUpdate => ({ groupId: 1, deviceSn: sn, ts, data });
    const keys = ['A', 'B', 'C', 'D', 'E'];
    const first = keys.flatMap((k, i) => [point(k, base + 60_000, i), point(k, base + 120_000, i * 2)]);
    const r1 = await repository.commit(
      [...first, point('Mode', base + 60_000, null, 'auto')],
      [latest(base + 120_000, { A: 0, B: 2, Mode: 'auto' })],
    );
    expect(r1).toMatchObject({ inserted: 11, duplicates: 0 });
    const again = keys.map((k, i) => point(k, base + 120_000, i * 2));
    const next = keys.map((k, i) => point(k, base + HOUR + 5000, i + 10));
    const r2 = await repository.commit([...again, ...next], [latest(base + HOUR + 5000, { A: 10 })]);
    expect(r2).toMatchObject({ inserted: 5, duplicates: 5 });
    await repository.commit([point('A', base, 7)], [latest(base, { A: 7, Old: 1 })]);
  };

  it('stores the same through json_each bulk statements and prepared multi-row statements', async () => {
    const kysely = await buildDevice(t.app.ctx, { groupId: 1 });
    await write(new TelemetryWriteRepository(t.app.ctx.db, 'sqlite', 480), kysely.sn);
    const expected = await stored(kysely.sn);
    expect(expected.raw).toHaveLength(17);
    expect(expected.hourly.find((r) => r.data_key === 'B' && r.cnt === 2)).toMatchObject({ sum: 3, first: 1, last: 2 });
    expect(expected.latest).toEqual({ ts: expect.any(Number) as number, data: { A: 10, B: 2, Mode: 'auto' } });

    for (const rows of [1, 3, 200]) {
      const device = await buildDevice(t.app.ctx, { groupId: 1 });
      const native = openSqliteConnection(path.join(t.dataDir, 'sluice.db'));
      natives.push(native);
      await write(new TelemetryWriteRepository(new SqliteWriteStatements(native, rows), 'sqlite', 480), device.sn);
      expect(await stored(device.sn)).toEqual(expected);
    }
  });
});
