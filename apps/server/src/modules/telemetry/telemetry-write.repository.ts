/**
 * Writes a batch of live data in one transaction: the series of new data points, raw rows,
 * hourly and daily roll-ups and each device's latest values. The statements are a
 * WriteStatements: through Kysely, bulk statements carrying a whole batch in one parameter (a
 * JSON array read with json_each on SQLite, arrays read with unnest on PostgreSQL); on a
 * node:sqlite connection of its own (the ingest writer's thread), prepared multi-row statements
 * kept for the connection's life (sqlite-write.statements.ts), the cheapest on SQLite by
 * measurement (docs/performance.md).
 */
import { Kysely, sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DialectName } from '../../db/migrations.ts';
import { RollupAccumulator, dayOf, hourOf, DAY_MS, HOUR_MS, type RollupRow } from './rollup.ts';

export interface BatchPoint {
  groupId: number;
  deviceSn: string;
  key: string;
  /** false when the key has no data definition (kept, but flagged). */
  defined: boolean;
  ts: number;
  num: number | null;
  txt: string | null;
}

export interface LatestUpdate {
  groupId: number;
  deviceSn: string;
  ts: number;
  data: Record<string, number | string>;
}

export interface BatchResult {
  inserted: number;
  duplicates: number;
  newSeries: number;
}

export type RawRow = [seriesId: number, ts: number, num: number | null, txt: string | null];
export type RollupTable = 'telemetry_hourly' | 'telemetry_daily';
export interface SeriesRow {
  id: number;
  device_sn: string;
  data_key: string;
}

/** The statements of one transaction. */
export interface TxStatements {
  /** Creates the series that do not exist yet, and answers the ids of all of them. */
  series(list: BatchPoint[], now: number): Promise<SeriesRow[]>;
  /** Inserts raw rows, keeping rows already stored; answers how many were new. */
  insertRaw(rows: RawRow[]): Promise<number>;
  /** Adds the batch's buckets into the stored ones. */
  mergeRollups(table: RollupTable, rows: RollupRow[]): Promise<void>;
  /** Recounts buckets from raw rows (after duplicates, whose values must not count twice). */
  recountRollups(table: RollupTable, rows: RollupRow[], width: number): Promise<void>;
  mergeLatest(latest: LatestUpdate[], now: number): Promise<void>;
}

export interface WriteStatements {
  transaction<T>(work: (tx: TxStatements) => Promise<T>): Promise<T>;
}

const seriesKey = (sn: string, key: string) => `${sn}\u0000${key}`;

export class TelemetryWriteRepository {
  private readonly statements: WriteStatements;
  private readonly offsetMinutes: number;
  /** Series ids by device and key; filled after commits only, so it never holds a rolled-back id. */
  private readonly seriesIds = new Map<string, number>();

  /** Through Kysely (`db` and its dialect), or on the given statements. */
  constructor(db: Db | WriteStatements, dialect: DialectName, offsetMinutes: number) {
    this.statements = db instanceof Kysely ? new KyselyStatements(db, dialect) : db;
    this.offsetMinutes = offsetMinutes;
  }

  /** Forgets the cached series of a device (its history was deleted). */
  forgetDevice(deviceSn: string): void {
    for (const key of this.seriesIds.keys()) if (key.startsWith(`${deviceSn}\u0000`)) this.seriesIds.delete(key);
  }

  async commit(points: BatchPoint[], latest: LatestUpdate[], now = Date.now()): Promise<BatchResult> {
    const learned = new Map<string, number>();
    const result = await this.statements.transaction(async (tx) => {
      const ids = await this.resolveSeries(tx, points, learned, now);
      const rows: RawRow[] = [];
      const hourly = new RollupAccumulator((ts) => hourOf(ts, this.offsetMinutes));
      const daily = new RollupAccumulator((ts) => dayOf(ts, this.offsetMinutes));
      // The same point twice in one batch is stored once (the primary key keeps the first).
      const seen = new Set<string>();
      for (const [i, p] of points.entries()) {
        const id = ids[i] ?? 0;
        const at = `${String(id)}:${String(p.ts)}`;
        if (seen.has(at)) continue;
        seen.add(at);
        rows.push([id, p.ts, p.num, p.txt]);
        if (p.num !== null) {
          hourly.add(id, p.ts, p.num);
          daily.add(id, p.ts, p.num);
        }
      }
      const inserted = rows.length > 0 ? await tx.insertRaw(rows) : 0;
      if (inserted === rows.length) {
        if (hourly.size > 0) await tx.mergeRollups('telemetry_hourly', hourly.values());
        if (daily.size > 0) await tx.mergeRollups('telemetry_daily', daily.values());
      } else {
        // Some points were stored before (a re-delivered message): recount the touched buckets from raw rows.
        await tx.recountRollups('telemetry_hourly', hourly.values(), HOUR_MS);
        await tx.recountRollups('telemetry_daily', daily.values(), DAY_MS);
      }
      if (latest.length > 0) await tx.mergeLatest(latest, now);
      return { inserted, duplicates: points.length - inserted, newSeries: learned.size };
    });
    for (const [key, id] of learned) this.seriesIds.set(key, id);
    return result;
  }

  private async resolveSeries(
    tx: TxStatements,
    points: BatchPoint[],
    learned: Map<string, number>,
    now: number,
  ): Promise<number[]> {
    const missing = new Map<string, BatchPoint>();
    for (const p of points) {
      const key = seriesKey(p.deviceSn, p.key);
      if (!this.seriesIds.has(key) && !missing.has(key)) missing.set(key, p);
    }
    if (missing.size > 0) {
      for (const r of await tx.series([...missing.values()], now)) learned.set(seriesKey(r.device_sn, r.data_key), r.id);
    }
    return points.map((p) => {
      const key = seriesKey(p.deviceSn, p.key);
      const id = this.seriesIds.get(key) ?? learned.get(key);
      if (id === undefined) throw new Error(`series ${p.deviceSn}/${p.key} was not created`);
      return id;
    });
  }
}

/** Bulk statements through Kysely: json_each on SQLite, unnest on PostgreSQL. */
class KyselyStatements implements WriteStatements {
  private readonly db: Db;
  private readonly dialect: DialectName;

  constructor(db: Db, dialect: DialectName) {
    this.db = db;
    this.dialect = dialect;
  }

  transaction<T>(work: (tx: TxStatements) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) =>
      work({
        series: (list, now) => this.series(trx, list, now),
        insertRaw: (rows) => this.insertRaw(trx, rows),
        mergeRollups: (table, rows) => this.mergeRollups(trx, table, rows),
        recountRollups: (table, rows, width) => this.recountRollups(trx, table, rows, width),
        mergeLatest: (latest, now) => this.mergeLatest(trx, latest, now),
      }),
    );
  }

  private async series(trx: Db, list: BatchPoint[], now: number): Promise<SeriesRow[]> {
    if (this.dialect === 'sqlite') {
      const json = JSON.stringify(list.map((p) => [p.groupId, p.deviceSn, p.key, p.defined ? 1 : 0]));
      await sql`insert into telemetry_series (group_id, device_sn, data_key, defined, created_at)
        select j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, ${now} from json_each(${json}) j where true
        on conflict (device_sn, data_key) do nothing`.execute(trx);
      const found = await sql<SeriesRow>`select s.id, s.device_sn, s.data_key from json_each(${json}) j
        join telemetry_series s on s.device_sn = j.value ->> 1 and s.data_key = j.value ->> 2`.execute(trx);
      return found.rows;
    }
    const groups = list.map((p) => p.groupId);
    const sns = list.map((p) => p.deviceSn);
    const keys = list.map((p) => p.key);
    const defined = list.map((p) => (p.defined ? 1 : 0));
    await sql`insert into telemetry_series (group_id, device_sn, data_key, defined, created_at)
      select g, s, k, d, ${now} from unnest(${groups}::int4[], ${sns}::text[], ${keys}::text[], ${defined}::int4[]) as u(g, s, k, d)
      on conflict (device_sn, data_key) do nothing`.execute(trx);
    const found = await sql<SeriesRow>`select s.id, s.device_sn, s.data_key
      from unnest(${sns}::text[], ${keys}::text[]) as u(sn, k) join telemetry_series s on s.device_sn = u.sn and s.data_key = u.k`.execute(
      trx,
    );
    return found.rows;
  }

  private async insertRaw(trx: Db, rows: RawRow[]): Promise<number> {
    let query: RawBuilder<unknown>;
    if (this.dialect === 'sqlite') {
      query = sql`insert into telemetry_raw (series_id, ts, num, txt)
        select j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3 from json_each(${JSON.stringify(rows)}) j where true
        on conflict do nothing`;
    } else {
      query = sql`insert into telemetry_raw (series_id, ts, num, txt)
        select * from unnest(${rows.map((r) => r[0])}::int4[], ${rows.map((r) => r[1])}::int8[], ${rows.map((r) => r[2])}::float8[], ${rows.map((r) => r[3])}::text[])
        on conflict do nothing`;
    }
    const result = await query.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  }

  private async mergeRollups(trx: Db, table: RollupTable, rows: RollupRow[]): Promise<void> {
    const t = sql.table(table);
    const [least, greatest] =
      this.dialect === 'sqlite' ? [sql.raw('min'), sql.raw('max')] : [sql.raw('least'), sql.raw('greatest')];
    const update = sql`on conflict (series_id, bucket) do update set
      cnt = ${t}.cnt + excluded.cnt, sum = ${t}.sum + excluded.sum,
      min = ${least}(${t}.min, excluded.min), max = ${greatest}(${t}.max, excluded.max),
      first = case when excluded.first_ts < ${t}.first_ts then excluded.first else ${t}.first end,
      first_ts = ${least}(${t}.first_ts, excluded.first_ts),
      last = case when excluded.last_ts >= ${t}.last_ts then excluded.last else ${t}.last end,
      last_ts = ${greatest}(${t}.last_ts, excluded.last_ts)`;
    if (this.dialect === 'sqlite') {
      const json = JSON.stringify(
        rows.map((r) => [r.seriesId, r.bucket, r.cnt, r.sum, r.min, r.max, r.firstTs, r.first, r.lastTs, r.last]),
      );
      await sql`insert into ${t} (series_id, bucket, cnt, sum, min, max, first_ts, first, last_ts, last)
        select j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7, j.value ->> 8, j.value ->> 9
        from json_each(${json}) j where true ${update}`.execute(trx);
    } else {
      const col = <T>(pick: (r: RollupRow) => T) => rows.map(pick);
      await sql`insert into ${t} (series_id, bucket, cnt, sum, min, max, first_ts, first, last_ts, last)
        select * from unnest(${col((r) => r.seriesId)}::int4[], ${col((r) => r.bucket)}::int8[], ${col((r) => r.cnt)}::int4[], ${col((r) => r.sum)}::float8[],
          ${col((r) => r.min)}::float8[], ${col((r) => r.max)}::float8[], ${col((r) => r.firstTs)}::int8[], ${col((r) => r.first)}::float8[],
          ${col((r) => r.lastTs)}::int8[], ${col((r) => r.last)}::float8[]) ${update}`.execute(trx);
    }
  }

  private async recountRollups(trx: Db, table: RollupTable, rows: RollupRow[], width: number): Promise<void> {
    const t = sql.table(table);
    for (const r of rows) {
      const from = r.bucket;
      const to = r.bucket + width;
      await sql`delete from ${t} where series_id = ${r.seriesId} and bucket = ${from}`.execute(trx);
      await sql`insert into ${t} (series_id, bucket, cnt, sum, min, max, first_ts, first, last_ts, last)
        select series_id, ${from}, count(*), sum(num), min(num), max(num), min(ts),
          (select f.num from telemetry_raw f where f.series_id = ${r.seriesId} and f.ts >= ${from} and f.ts < ${to} and f.num is not null order by f.ts asc limit 1),
          max(ts),
          (select l.num from telemetry_raw l where l.series_id = ${r.seriesId} and l.ts >= ${from} and l.ts < ${to} and l.num is not null order by l.ts desc limit 1)
        from telemetry_raw where series_id = ${r.seriesId} and ts >= ${from} and ts < ${to} and num is not null group by series_id`.execute(
        trx,
      );
    }
  }

  private async mergeLatest(trx: Db, latest: LatestUpdate[], now: number): Promise<void> {
    if (this.dialect === 'sqlite') {
      const json = JSON.stringify(latest.map((l) => [l.deviceSn, l.groupId, l.ts, JSON.stringify(l.data)]));
      await sql`insert into device_latest (device_sn, group_id, ts, data, updated_at)
        select j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, ${now} from json_each(${json}) j where true
        on conflict (device_sn) do update set data = json_patch(device_latest.data, excluded.data), ts = excluded.ts, updated_at = excluded.updated_at
        where excluded.ts >= device_latest.ts`.execute(trx);
    } else {
      await sql`insert into device_latest (device_sn, group_id, ts, data, updated_at)
        select s, g, t, d, ${now} from unnest(${latest.map((l) => l.deviceSn)}::text[], ${latest.map((l) => l.groupId)}::int4[], ${latest.map((l) => l.ts)}::int8[],
          ${latest.map((l) => JSON.stringify(l.data))}::text[]) as u(s, g, t, d)
        on conflict (device_sn) do update set data = (device_latest.data::jsonb || excluded.data::jsonb)::text, ts = excluded.ts, updated_at = excluded.updated_at
        where excluded.ts >= device_latest.ts`.execute(trx);
    }
  }
}
