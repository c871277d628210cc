/**
 * Reads of live data: latest values, a device's series, raw rows and roll-ups over a range.
 * Every read is scoped by group; callers check the device against the user's grants first.
 */
import type { Db } from '../../db/database.ts';
import { selectColumns } from '../../db/select-columns.ts';
import type { BucketColumns } from './downsample.ts';

export interface SeriesInfo {
  id: number;
  key: string;
  defined: boolean;
}

export interface Latest {
  deviceSn: string;
  ts: number;
  data: Record<string, number | string>;
}

export interface RollupPoint {
  bucket: number;
  cnt: number;
  sum: number;
  min: number;
  max: number;
  firstTs: number;
  first: number;
  last: number;
  lastTs: number;
}

export type RollupTable = 'telemetry_hourly' | 'telemetry_daily';

const EMPTY_BUCKETS: BucketColumns & { length: number } = { bucket: [], cnt: [], sum: [], min: [], max: [], length: 0 };

function parseData(text: string): Record<string, number | string> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, number | string>) : {};
  } catch {
    return {};
  }
}

export class HistoryRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async latest(groupId: number, deviceSns: string[]): Promise<Map<string, Latest>> {
    if (deviceSns.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('device_latest')
      .select(['device_sn', 'ts', 'data'])
      .where('group_id', '=', groupId)
      .where('device_sn', 'in', deviceSns)
      .execute();
    return new Map(rows.map((r) => [r.device_sn, { deviceSn: r.device_sn, ts: r.ts, data: parseData(r.data) }]));
  }

  async series(groupId: number, deviceSn: string, keys?: string[]): Promise<SeriesInfo[]> {
    let q = this.db
      .selectFrom('telemetry_series')
      .select(['id', 'data_key', 'defined'])
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn);
    if (keys && keys.length > 0) q = q.where('data_key', 'in', keys);
    const rows = await q.orderBy('data_key').execute();
    return rows.map((r) => ({ id: r.id, key: r.data_key, defined: r.defined === 1 }));
  }

  /** Series ids of many devices' keys (for monitor data). */
  async seriesOf(groupId: number, deviceSns: string[]): Promise<{ id: number; deviceSn: string; key: string }[]> {
    if (deviceSns.length === 0) return [];
    const rows = await this.db
      .selectFrom('telemetry_series')
      .select(['id', 'device_sn', 'data_key'])
      .where('group_id', '=', groupId)
      .where('device_sn', 'in', deviceSns)
      .execute();
    return rows.map((r) => ({ id: r.id, deviceSn: r.device_sn, key: r.data_key }));
  }

  async countRaw(seriesIds: number[], from: number, to: number): Promise<number> {
    if (seriesIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('telemetry_raw')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('series_id', 'in', seriesIds)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .executeTakeFirstOrThrow();
    return row.n;
  }

  /** Raw points of one series in [from, to), oldest first, as columns. */
  async raw(
    seriesId: number,
    from: number,
    to: number,
    limit: number,
  ): Promise<{ ts: ArrayLike<number>; num: ArrayLike<number | null>; txt: ArrayLike<string | null>; length: number }> {
    const columns = await selectColumns(
      this.db,
      this.db
        .selectFrom('telemetry_raw')
        .select(['ts', 'num', 'txt'])
        .where('series_id', '=', seriesId)
        .where('ts', '>=', from)
        .where('ts', '<', to)
        .orderBy('ts')
        .limit(limit),
    );
    return columns.length === 0 ? { ts: [], num: [], txt: [], length: 0 } : columns;
  }

  async rollups(table: RollupTable, seriesIds: number[], from: number, to: number): Promise<Map<number, RollupPoint[]>> {
    const result = new Map<number, RollupPoint[]>();
    if (seriesIds.length === 0) return result;
    const rows = await this.db
      .selectFrom(table)
      .select(ROLLUP_COLUMNS)
      .where('series_id', 'in', seriesIds)
      .where('bucket', '>=', from)
      .where('bucket', '<', to)
      .orderBy('series_id')
      .orderBy('bucket')
      .execute();
    groupRollups(rows, result);
    return result;
  }

  /**
   * What charts need of the roll-ups (no first/last) as columns, one read per series: series id
   * → its buckets in time order. Each column costs (a year of ten series' hours is 87,600 rows),
   * so only these five are read, and no row object is made (select-columns.ts).
   */
  async chartRollups(table: RollupTable, seriesIds: number[], from: number, to: number): Promise<Map<number, BucketColumns>> {
    const reads = seriesIds.map(async (id) => {
      const columns = await selectColumns(
        this.db,
        this.db
          .selectFrom(table)
          .select(['bucket', 'cnt', 'sum', 'min', 'max'])
          .where('series_id', '=', id)
          .where('bucket', '>=', from)
          .where('bucket', '<', to)
          .orderBy('bucket'),
      );
      return [id, columns.length === 0 ? EMPTY_BUCKETS : columns] as const;
    });
    return new Map(await Promise.all(reads));
  }

  /** The readings each series' daily roll-ups count in [from, to): series id → count. */
  async dailyCounts(seriesIds: number[], from: number, to: number): Promise<Map<number, number>> {
    if (seriesIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('telemetry_daily')
      .select((eb) => ['series_id', eb.fn.sum<number>('cnt').as('n')])
      .where('series_id', 'in', seriesIds)
      .where('bucket', '>=', from)
      .where('bucket', '<', to)
      .groupBy('series_id')
      .execute();
    return new Map(rows.map((r) => [r.series_id, r.n]));
  }

  /**
   * Roll-up buckets of many (series, range) pairs at once — the hours of the days statistics must
   * look into — in a few statements rather than one per day: series id → buckets in time order.
   */
  async rollupsWithin(
    table: RollupTable,
    ranges: { seriesId: number; from: number; to: number }[],
  ): Promise<Map<number, RollupPoint[]>> {
    const result = new Map<number, RollupPoint[]>();
    for (let i = 0; i < ranges.length; i += 200) {
      const chunk = ranges.slice(i, i + 200);
      const rows = await this.db
        .selectFrom(table)
        .select(ROLLUP_COLUMNS)
        .where((eb) =>
          eb.or(
            chunk.map((r) => eb.and([eb('series_id', '=', r.seriesId), eb('bucket', '>=', r.from), eb('bucket', '<', r.to)])),
          ),
        )
        .orderBy('series_id')
        .orderBy('bucket')
        .execute();
      groupRollups(rows, result);
    }
    return result;
  }

  /** Numeric raw rows of many (series, range) pairs at once: series id → [ts, value] in time order. */
  async rawWithin(ranges: { seriesId: number; from: number; to: number }[]): Promise<Map<number, [number, number | null][]>> {
    const result = new Map<number, [number, number | null][]>();
    for (let i = 0; i < ranges.length; i += 200) {
      const chunk = ranges.slice(i, i + 200);
      const rows = await this.db
        .selectFrom('telemetry_raw')
        .select(['series_id', 'ts', 'num'])
        .where((eb) =>
          eb.or(chunk.map((r) => eb.and([eb('series_id', '=', r.seriesId), eb('ts', '>=', r.from), eb('ts', '<', r.to)]))),
        )
        .orderBy('series_id')
        .orderBy('ts')
        .execute();
      for (const r of rows) {
        const list = result.get(r.series_id) ?? [];
        list.push([r.ts, r.num]);
        result.set(r.series_id, list);
      }
    }
    return result;
  }

  /** Each series' last daily reading before `before` (where a counter stood when a range begins). */
  async lastDailyBefore(seriesIds: number[], before: number): Promise<Map<number, { ts: number; value: number }>> {
    if (seriesIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('telemetry_daily as d')
      .select(['d.series_id', 'd.last_ts', 'd.last'])
      .where('d.series_id', 'in', seriesIds)
      .where('d.bucket', '=', (eb) =>
        eb
          .selectFrom('telemetry_daily as p')
          .select((p) => p.fn.max('p.bucket').as('b'))
          .whereRef('p.series_id', '=', 'd.series_id')
          .where('p.bucket', '<', before),
      )
      .execute();
    return new Map(rows.map((r) => [r.series_id, { ts: r.last_ts, value: r.last }]));
  }

  /** One series' last raw row before `before`, if any. */
  async rawBefore(seriesId: number, before: number): Promise<{ ts: number; num: number | null; txt: string | null } | undefined> {
    return this.db
      .selectFrom('telemetry_raw')
      .select(['ts', 'num', 'txt'])
      .where('series_id', '=', seriesId)
      .where('ts', '<', before)
      .orderBy('ts', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The latest value of one key of a device (the command's old value). */
  async latestValue(groupId: number, deviceSn: string, key: string): Promise<number | string | undefined> {
    return (await this.latest(groupId, [deviceSn])).get(deviceSn)?.data[key];
  }
}

/** The roll-up columns a RollupPoint is made of. */
const ROLLUP_COLUMNS = ['series_id', 'bucket', 'cnt', 'sum', 'min', 'max', 'first_ts', 'first', 'last', 'last_ts'] as const;

interface RollupRow {
  series_id: number;
  bucket: number;
  cnt: number;
  sum: number;
  min: number;
  max: number;
  first_ts: number;
  first: number;
  last: number;
  last_ts: number;
}

/** Adds roll-up rows (ordered by series and bucket) to their series' lists. */
function groupRollups(rows: RollupRow[], into: Map<number, RollupPoint[]>): void {
  for (const r of rows) {
    const list = into.get(r.series_id) ?? [];
    list.push({
      bucket: r.bucket,
      cnt: r.cnt,
      sum: r.sum,
      min: r.min,
      max: r.max,
      firstTs: r.first_ts,
      first: r.first,
      last: r.last,
      lastTs: r.last_ts,
    });
    into.set(r.series_id, list);
  }
}
