/**
 * The ingest writer's statements on a node:sqlite connection of its own (its worker thread):
 * prepared once for the connection's life, each a multi-row VALUES of `rowsPerStatement` rows
 * (200; the last of a batch shorter), inside a `begin immediate` transaction. Chosen by
 * measurement against the json_each bulk statements and row-by-row ones (docs/performance.md,
 * `npm run bench:statements`): 2.4 times fewer CPU-seconds per point than json_each, 1.2 times
 * fewer than row by row.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { RollupRow } from './rollup.ts';
import type {
  BatchPoint,
  LatestUpdate,
  RawRow,
  RollupTable,
  SeriesRow,
  TxStatements,
  WriteStatements,
} from './telemetry-write.repository.ts';

const ROLLUP_COLUMNS = 'series_id, bucket, cnt, sum, min, max, first_ts, first, last_ts, last';
const rollupUpdate = (t: RollupTable) => `on conflict (series_id, bucket) do update set
  cnt = ${t}.cnt + excluded.cnt, sum = ${t}.sum + excluded.sum,
  min = min(${t}.min, excluded.min), max = max(${t}.max, excluded.max),
  first = case when excluded.first_ts < ${t}.first_ts then excluded.first else ${t}.first end,
  first_ts = min(${t}.first_ts, excluded.first_ts),
  last = case when excluded.last_ts >= ${t}.last_ts then excluded.last else ${t}.last end,
  last_ts = max(${t}.last_ts, excluded.last_ts)`;

export class SqliteWriteStatements implements WriteStatements {
  private readonly db: DatabaseSync;
  private readonly rowsPerStatement: number;
  private readonly cache = new Map<string, StatementSync>();
  /** Multi-row statements by their head, then by their number of rows. */
  private readonly bySize = new Map<string, StatementSync[]>();

  /** Taken around each transaction: the process's write lock for the file (sqlite-write-lock.ts), in the writer's thread. */
  private readonly lock: { acquire(): void; release(): void } | undefined;

  constructor(db: DatabaseSync, rowsPerStatement = 200, lock?: { acquire(): void; release(): void }) {
    this.db = db;
    this.rowsPerStatement = rowsPerStatement;
    this.lock = lock;
  }

  async transaction<T>(work: (tx: TxStatements) => Promise<T>): Promise<T> {
    this.lock?.acquire();
    try {
      this.db.exec('begin immediate');
      try {
        const result = await work(this.tx);
        this.db.exec('commit');
        return result;
      } catch (error) {
        if (this.db.isTransaction) this.db.exec('rollback');
        throw error;
      }
    } finally {
      this.lock?.release();
    }
  }

  private readonly tx: TxStatements = {
    series: (list, now) => Promise.resolve(this.series(list, now)),
    insertRaw: (rows) => Promise.resolve(this.insertRaw(rows)),
    mergeRollups: (table, rows) => {
      this.mergeRollups(table, rows);
      return Promise.resolve();
    },
    recountRollups: (table, rows, width) => {
      this.recountRollups(table, rows, width);
      return Promise.resolve();
    },
    mergeLatest: (latest, now) => {
      this.mergeLatest(latest, now);
      return Promise.resolve();
    },
  };

  private statement(text: string): StatementSync {
    let statement = this.cache.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.cache.set(text, statement);
    }
    return statement;
  }

  /** `head values (…), (…) tail` with `count` tuples, prepared once. */
  private sized(head: string, tuple: string, tail: string, count: number): StatementSync {
    let sizes = this.bySize.get(head);
    if (!sizes) {
      sizes = [];
      this.bySize.set(head, sizes);
    }
    let statement = sizes[count];
    if (!statement) {
      statement = this.db.prepare(`${head} values ${Array.from({ length: count }, () => tuple).join(', ')} ${tail}`);
      sizes[count] = statement;
    }
    return statement;
  }

  /** Runs `head values (…), (…) tail` over the rows, rowsPerStatement tuples at a time; answers the rows changed. */
  private many<R>(head: string, tuple: string, tail: string, rows: R[], values: (row: R) => SQLInputValue[]): number {
    let changed = 0;
    for (let i = 0; i < rows.length; i += this.rowsPerStatement) {
      const end = Math.min(rows.length, i + this.rowsPerStatement);
      const statement = this.sized(head, tuple, tail, end - i);
      const parameters: SQLInputValue[] = [];
      for (let j = i; j < end; j++) for (const v of values(rows[j] as R)) parameters.push(v);
      changed += Number(statement.run(...parameters).changes);
    }
    return changed;
  }

  private series(list: BatchPoint[], now: number): SeriesRow[] {
    this.many(
      'insert into telemetry_series (group_id, device_sn, data_key, defined, created_at)',
      '(?, ?, ?, ?, ?)',
      'on conflict (device_sn, data_key) do nothing',
      list,
      (p) => [p.groupId, p.deviceSn, p.key, p.defined ? 1 : 0, now],
    );
    const find = this.statement('select id from telemetry_series where device_sn = ? and data_key = ?');
    const found: SeriesRow[] = [];
    for (const p of list) {
      const row = find.get(p.deviceSn, p.key) as { id: number } | undefined;
      if (row) found.push({ id: row.id, device_sn: p.deviceSn, data_key: p.key });
    }
    return found;
  }

  private insertRaw(rows: RawRow[]): number {
    return this.many(
      'insert into telemetry_raw (series_id, ts, num, txt)',
      '(?, ?, ?, ?)',
      'on conflict do nothing',
      rows,
      (r) => r,
    );
  }

  private mergeRollups(table: RollupTable, rows: RollupRow[]): void {
    this.many(`insert into ${table} (${ROLLUP_COLUMNS})`, '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', rollupUpdate(table), rows, (r) => [
      r.seriesId,
      r.bucket,
      r.cnt,
      r.sum,
      r.min,
      r.max,
      r.firstTs,
      r.first,
      r.lastTs,
      r.last,
    ]);
  }

  private recountRollups(table: RollupTable, rows: RollupRow[], width: number): void {
    const remove = this.statement(`delete from ${table} where series_id = ? and bucket = ?`);
    const insert = this.statement(`insert into ${table} (${ROLLUP_COLUMNS})
      select series_id, :from, count(*), sum(num), min(num), max(num), min(ts),
        (select f.num from telemetry_raw f where f.series_id = :id and f.ts >= :from and f.ts < :to and f.num is not null order by f.ts asc limit 1),
        max(ts),
        (select l.num from telemetry_raw l where l.series_id = :id and l.ts >= :from and l.ts < :to and l.num is not null order by l.ts desc limit 1)
      from telemetry_raw where series_id = :id and ts >= :from and ts < :to and num is not null group by series_id`);
    for (const r of rows) {
      remove.run(r.seriesId, r.bucket);
      insert.run({ id: r.seriesId, from: r.bucket, to: r.bucket + width });
    }
  }

  private mergeLatest(latest: LatestUpdate[], now: number): void {
    this.many(
      'insert into device_latest (device_sn, group_id, ts, data, updated_at)',
      '(?, ?, ?, ?, ?)',
      `on conflict (device_sn) do update set data = json_patch(device_latest.data, excluded.data), ts = excluded.ts, updated_at = excluded.updated_at
        where excluded.ts >= device_latest.ts`,
      latest,
      (l) => [l.deviceSn, l.groupId, l.ts, JSON.stringify(l.data), now],
    );
  }
}
