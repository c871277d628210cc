/**
 * For bench:statements: the write repository's statements on PostgreSQL in two other shapes,
 * on one pg client, to be measured against the server's unnest statements (Kysely):
 * - 'values': prepared multi-row VALUES of `rowsPerStatement` rows, kept for the connection's
 *   life (what won on SQLite);
 * - 'copy': raw rows and roll-ups sent with COPY … FROM STDIN into temporary tables, then one
 *   insert … select … on conflict each (COPY itself cannot skip duplicates or merge roll-ups).
 * The series (first pass only) and the latest values use the unnest statements in both.
 */
import pg from 'pg';
import type { RollupRow } from '../apps/server/src/modules/telemetry/rollup.ts';
import type {
  BatchPoint,
  LatestUpdate,
  RawRow,
  RollupTable,
  SeriesRow,
  TxStatements,
  WriteStatements,
} from '../apps/server/src/modules/telemetry/telemetry-write.repository.ts';

const ROLLUP_COLUMNS = 'series_id, bucket, cnt, sum, min, max, first_ts, first, last_ts, last';
const rollupUpdate = (t: RollupTable) => `on conflict (series_id, bucket) do update set
  cnt = ${t}.cnt + excluded.cnt, sum = ${t}.sum + excluded.sum,
  min = least(${t}.min, excluded.min), max = greatest(${t}.max, excluded.max),
  first = case when excluded.first_ts < ${t}.first_ts then excluded.first else ${t}.first end,
  first_ts = least(${t}.first_ts, excluded.first_ts),
  last = case when excluded.last_ts >= ${t}.last_ts then excluded.last else ${t}.last end,
  last_ts = greatest(${t}.last_ts, excluded.last_ts)`;
const rollupValues = (r: RollupRow) => [r.seriesId, r.bucket, r.cnt, r.sum, r.min, r.max, r.firstTs, r.first, r.lastTs, r.last];

/** COPY … FROM STDIN of a text-format payload, as a pg "submittable" (pg has no COPY API of its own). */
class CopyIn {
  private readonly text: string;
  private readonly data: string;
  private readonly done: (error?: Error) => void;
  private error: Error | undefined;

  constructor(text: string, data: string, done: (error?: Error) => void) {
    this.text = text;
    this.data = data;
    this.done = done;
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }): void {
    connection.sendCopyFromChunk(Buffer.from(this.data));
    connection.endCopyFrom();
  }

  handleCommandComplete(): void {
    // The rows are counted by the insert … select that follows.
  }

  handleError(error: Error): void {
    this.error = error;
  }

  handleReadyForQuery(): void {
    this.done(this.error);
  }
}

const copyValue = (v: number | string | null) =>
  v === null
    ? '\\N'
    : typeof v === 'number'
      ? String(v)
      : v.replace(/[\\\t\n\r]/g, (c) => `\\${c === '\t' ? 't' : c === '\n' ? 'n' : c === '\r' ? 'r' : '\\'}`);

export class PgClientStatements implements WriteStatements {
  private readonly client: pg.Client;
  private readonly mode: 'values' | 'copy';
  private readonly rowsPerStatement: number;
  private tablesMade = false;

  constructor(client: pg.Client, mode: 'values' | 'copy', rowsPerStatement = 200) {
    this.client = client;
    this.mode = mode;
    this.rowsPerStatement = rowsPerStatement;
  }

  async transaction<T>(work: (tx: TxStatements) => Promise<T>): Promise<T> {
    if (this.mode === 'copy' && !this.tablesMade) {
      await this.client.query('create temp table raw_in (series_id int4, ts int8, num float8, txt text) on commit delete rows');
      await this.client.query(
        'create temp table rollup_in (series_id int4, bucket int8, cnt int4, sum float8, min float8, max float8, first_ts int8, first float8, last_ts int8, last float8) on commit delete rows',
      );
      this.tablesMade = true;
    }
    await this.client.query('begin');
    try {
      const result = await work(this.tx);
      await this.client.query('commit');
      return result;
    } catch (error) {
      await this.client.query('rollback');
      throw error;
    }
  }

  private readonly tx: TxStatements = {
    series: (list, now) => this.series(list, now),
    insertRaw: (rows) =>
      this.mode === 'copy'
        ? this.copyRaw(rows)
        : this.many('raw', 'insert into telemetry_raw (series_id, ts, num, txt)', 4, 'on conflict do nothing', rows, (r) => r),
    mergeRollups: async (table, rows) => {
      if (this.mode === 'copy') await this.copyRollups(table, rows);
      else await this.many(table, `insert into ${table} (${ROLLUP_COLUMNS})`, 10, rollupUpdate(table), rows, rollupValues);
    },
    recountRollups: () => Promise.reject(new Error('not measured: the benchmark sends no duplicates')),
    mergeLatest: (latest, now) => this.mergeLatest(latest, now),
  };

  /** `head values (…), … tail` over the rows, a named prepared statement for each row count. */
  private async many<R>(
    name: string,
    head: string,
    columns: number,
    tail: string,
    rows: R[],
    values: (row: R) => (number | string | null)[],
  ): Promise<number> {
    let changed = 0;
    for (let i = 0; i < rows.length; i += this.rowsPerStatement) {
      const end = Math.min(rows.length, i + this.rowsPerStatement);
      const count = end - i;
      const tuples = Array.from(
        { length: count },
        (_, k) => `(${Array.from({ length: columns }, (_, c) => `$${String(k * columns + c + 1)}`).join(', ')})`,
      );
      const parameters: (number | string | null)[] = [];
      for (let j = i; j < end; j++) for (const v of values(rows[j] as R)) parameters.push(v);
      const result = await this.client.query({
        name: `${name}_${String(count)}`,
        text: `${head} values ${tuples.join(', ')} ${tail}`,
        values: parameters,
      });
      changed += result.rowCount ?? 0;
    }
    return changed;
  }

  private copy(table: string, lines: string): Promise<void> {
    return new Promise((resolve, reject) => {
      void this.client.query(
        new CopyIn(`copy ${table} from stdin`, lines, (error) => {
          if (error) reject(error);
          else resolve();
        }) as unknown as pg.QueryConfig,
      );
    });
  }

  private async copyRaw(rows: RawRow[]): Promise<number> {
    await this.copy('raw_in', rows.map((r) => `${r.map(copyValue).join('\t')}\n`).join(''));
    // raw_in empties at commit (one raw insert a transaction).
    const result = await this.client.query('insert into telemetry_raw select * from raw_in on conflict do nothing');
    return result.rowCount ?? 0;
  }

  private async copyRollups(table: RollupTable, rows: RollupRow[]): Promise<void> {
    await this.copy('rollup_in', rows.map((r) => `${rollupValues(r).map(copyValue).join('\t')}\n`).join(''));
    await this.client.query(`insert into ${table} (${ROLLUP_COLUMNS}) select * from rollup_in ${rollupUpdate(table)}`);
    await this.client.query('truncate rollup_in');
  }

  private async series(list: BatchPoint[], now: number): Promise<SeriesRow[]> {
    const sns = list.map((p) => p.deviceSn);
    const keys = list.map((p) => p.key);
    await this.client.query(
      `insert into telemetry_series (group_id, device_sn, data_key, defined, created_at)
       select g, s, k, d, $5 from unnest($1::int4[], $2::text[], $3::text[], $4::int4[]) as u(g, s, k, d)
       on conflict (device_sn, data_key) do nothing`,
      [list.map((p) => p.groupId), sns, keys, list.map((p) => (p.defined ? 1 : 0)), now],
    );
    const found = await this.client.query<SeriesRow>(
      `select s.id, s.device_sn, s.data_key from unnest($1::text[], $2::text[]) as u(sn, k)
       join telemetry_series s on s.device_sn = u.sn and s.data_key = u.k`,
      [sns, keys],
    );
    return found.rows;
  }

  private async mergeLatest(latest: LatestUpdate[], now: number): Promise<void> {
    await this.client.query(
      `insert into device_latest (device_sn, group_id, ts, data, updated_at)
       select s, g, t, d, $5 from unnest($1::text[], $2::int4[], $3::int8[], $4::text[]) as u(s, g, t, d)
       on conflict (device_sn) do update set data = (device_latest.data::jsonb || excluded.data::jsonb)::text, ts = excluded.ts, updated_at = excluded.updated_at
       where excluded.ts >= device_latest.ts`,
      [
        latest.map((l) => l.deviceSn),
        latest.map((l) => l.groupId),
        latest.map((l) => l.ts),
        latest.map((l) => JSON.stringify(l.data)),
        now,
      ],
    );
  }
}
