/**
 * Retention's deletes, chunk by chunk: a chunk is at most `chunkRows` expired rows of a table,
 * within a range of at most SERIES_PER_RANGE series (each series' expired rows are a seek on
 * the primary key (series_id, time)); chunks follow one another until the table is done, with
 * a pause between them for other work. On SQLite the whole loop runs in the ingest writer's
 * thread, on its connection (telemetry-write.worker.ts), the batches that came meanwhile
 * committed between two chunks: the main thread sends one request a table and waits for the
 * answer. (A first version had the main thread ask for each chunk: at load 20 each chunk then
 * waited for the busy main thread's turn, and 10 M rows took 289 s.) On PostgreSQL (and SQLite
 * without that thread) the loop runs through Kysely, yielding to the event loop between chunks.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export type RetentionTable = 'telemetry_raw' | 'telemetry_hourly' | 'telemetry_daily';

export interface ChunkRequest {
  table: RetentionTable;
  /** Rows with a time (ts for raw rows, bucket for roll-ups) before this are expired. */
  cutoff: number;
  /** The chunk looks at series with ids above this. */
  after: number;
  chunkRows: number;
}

export interface ChunkResult {
  deleted: number;
  /** Where the next chunk starts (the same range again while it may hold more). */
  after: number;
  /** No series past `after`: the table is done. */
  done: boolean;
}

export type ExpiryRequest = Omit<ChunkRequest, 'after'>;

/** Deletes a table's expired rows in chunks; answers how many. */
export interface ExpiredRows {
  deleteExpired(request: ExpiryRequest, stopped: () => boolean): Promise<number>;
}

/** The loop: chunk after chunk until the table is done or `stopped`, `between` awaited between two. */
export async function deleteInChunks(
  deleteChunk: (chunk: ChunkRequest) => ChunkResult | Promise<ChunkResult>,
  request: ExpiryRequest,
  between: () => Promise<void> | void,
  stopped: () => boolean,
): Promise<number> {
  let deleted = 0;
  let after = 0;
  while (!stopped()) {
    const chunk = await deleteChunk({ ...request, after });
    if (chunk.done) break;
    deleted += chunk.deleted;
    after = chunk.after;
    await between();
  }
  return deleted;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Series a chunk looks at, at most. */
export const SERIES_PER_RANGE = 500;

const timeColumn = (table: RetentionTable) => (table === 'telemetry_raw' ? 'ts' : 'bucket');

/** What a range and a chunk's count say about the next chunk. */
function nextChunk(request: ChunkRequest, last: number, deleted: number): ChunkResult {
  // A full chunk: the range may hold more expired rows, so the next chunk looks at it again.
  return { deleted, after: deleted < request.chunkRows ? last : request.after, done: false };
}

/** Through Kysely: PostgreSQL (on the connection holding the job's advisory lock), or SQLite on the main thread. */
export class KyselyExpiredRows implements ExpiredRows {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  deleteExpired(request: ExpiryRequest, stopped: () => boolean): Promise<number> {
    return deleteInChunks((chunk) => this.deleteChunk(chunk), request, yieldToLoop, stopped);
  }

  private async deleteChunk(request: ChunkRequest): Promise<ChunkResult> {
    const range = await this.db
      .selectFrom('telemetry_series')
      .select('id')
      .where('id', '>', request.after)
      .orderBy('id')
      .limit(SERIES_PER_RANGE)
      .execute();
    const first = range[0]?.id;
    const last = range.at(-1)?.id;
    if (first === undefined || last === undefined) return { deleted: 0, after: request.after, done: true };
    const t = sql.table(request.table);
    const column = timeColumn(request.table);
    const c = sql.ref(`r.${column}`);
    const result = await sql`delete from ${t} where (series_id, ${sql.ref(column)}) in (
      select r.series_id, ${c} from telemetry_series s join ${t} r on r.series_id = s.id and ${c} < ${request.cutoff}
      where s.id between ${first} and ${last} limit ${request.chunkRows})`.execute(this.db);
    return nextChunk(request, last, Number(result.numAffectedRows ?? 0));
  }
}

/**
 * One chunk on a node:sqlite connection of its own (the ingest writer's thread, which runs the
 * loop), its statements prepared once; `lock` is taken around each delete (the process's write
 * lock, sqlite-write-lock.ts).
 */
export class SqliteExpiredChunks {
  private readonly db: DatabaseSync;
  private readonly lock: { acquire(): void; release(): void };
  private readonly statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, lock: { acquire(): void; release(): void }) {
    this.db = db;
    this.lock = lock;
  }

  deleteChunk(request: ChunkRequest): ChunkResult {
    const range = this.statement(
      'range',
      `select min(id) as first, max(id) as last from
        (select id from telemetry_series where id > ? order by id limit ${String(SERIES_PER_RANGE)})`,
    ).get(request.after) as { first: number | null; last: number | null } | undefined;
    const first = range?.first;
    const last = range?.last;
    if (first == null || last == null) return { deleted: 0, after: request.after, done: true };
    const t = request.table;
    const c = timeColumn(t);
    const remove = this.statement(
      t,
      `delete from ${t} where (series_id, ${c}) in (
        select r.series_id, r.${c} from telemetry_series s join ${t} r on r.series_id = s.id and r.${c} < ?
        where s.id between ? and ? limit ?)`,
    );
    this.lock.acquire();
    let deleted: number;
    try {
      deleted = Number(remove.run(request.cutoff, first, last, request.chunkRows).changes);
    } finally {
      this.lock.release();
    }
    return nextChunk(request, last, deleted);
  }

  private statement(key: string, text: string): StatementSync {
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(key, statement);
    }
    return statement;
  }
}
