/**
 * Kysely on Node's built-in node:sqlite (no native add-on to compile), with two connections to
 * the database file on the main thread: plain reads go to a read-only one at once (WAL lets
 * them read while another connection writes); writes and transactions go to the other, one at a
 * time, each after taking the process's write lock for the file (sqlite-write-lock.ts) — so
 * waiting for the ingest writer's thread never blocks the event loop, and a write waiting for its
 * turn never holds up the reads behind it.
 */
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { MainWriteLock, writeLockOf } from './sqlite-write-lock.ts';

export function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  if (
    value === null ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'string' ||
    value instanceof Uint8Array
  ) {
    return value;
  }
  return JSON.stringify(value);
}

/** Prepared statements by SQL text, per connection: preparing costs more than running most of them. */
const STATEMENT_CACHE_SIZE = 500;
const statements = new WeakMap<DatabaseSync, Map<string, { stmt: StatementSync; returnsRows: boolean }>>();

function prepared(db: DatabaseSync, sql: string): { stmt: StatementSync; returnsRows: boolean } {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let entry = cache.get(sql);
  if (!entry) {
    const stmt = db.prepare(sql);
    entry = { stmt, returnsRows: stmt.columns().length > 0 };
    // The oldest goes first when full (SQL texts a query builder makes repeat; a few are one-offs).
    if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value ?? '');
    cache.set(sql, entry);
  }
  return entry;
}

function execute<R>(db: DatabaseSync, { sql, parameters }: CompiledQuery): QueryResult<R> {
  const { stmt, returnsRows } = prepared(db, sql);
  const values = parameters.map(toSqlite);
  if (returnsRows) return { rows: stmt.all(...values) as R[] };
  const { changes, lastInsertRowid } = stmt.run(...values);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** A query that only reads: Kysely's selects, and raw SQL that is a plain select. */
export function readsOnly(query: CompiledQuery): boolean {
  if (SelectQueryNode.is(query.query)) return true;
  return query.query.kind === 'RawNode' && /^\s*select\b/i.test(query.sql) && !/\breturning\b/i.test(query.sql);
}

class NodeSqliteConnection implements DatabaseConnection {
  private readonly writer: DatabaseSync;
  private readonly reader: DatabaseSync;
  private readonly lock: MainWriteLock;
  private inTransaction = false;

  constructor(writer: DatabaseSync, reader: DatabaseSync, lock: MainWriteLock) {
    this.writer = writer;
    this.reader = reader;
    this.lock = lock;
  }

  async begin(): Promise<void> {
    await this.lock.acquire();
    try {
      // Immediate: the write lock is taken now (it is free: the lock above says so), not at the
      // first write, which could then fail at once with SQLITE_BUSY.
      this.writer.exec('begin immediate');
    } catch (error) {
      this.lock.release();
      throw error;
    }
    this.inTransaction = true;
  }

  commit(): void {
    if (!this.inTransaction) return;
    // A failed commit leaves the transaction (and the lock) to the rollback Kysely sends next.
    this.writer.exec('commit');
    this.inTransaction = false;
    this.lock.release();
  }

  rollback(): void {
    if (!this.inTransaction) return;
    try {
      if (this.writer.isTransaction) this.writer.exec('rollback');
    } finally {
      this.inTransaction = false;
      this.lock.release();
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return execute<R>(this.writer, query);
    if (readsOnly(query)) return execute<R>(this.reader, query);
    await this.lock.acquire();
    try {
      return execute<R>(this.writer, query);
    } finally {
      this.lock.release();
    }
  }

  streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!readsOnly(query)) throw new Error('only selects can be streamed');
    const db = this.inTransaction ? this.writer : this.reader;
    const rows = db.prepare(query.sql).iterate(...query.parameters.map(toSqlite));
    const iterator: AsyncIterableIterator<QueryResult<R>> = {
      next: () => {
        const next = rows.next();
        return Promise.resolve(
          next.done ? { done: true, value: undefined } : { done: false, value: { rows: [next.value as R] } },
        );
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}

function own(connection: DatabaseConnection): NodeSqliteConnection {
  if (!(connection instanceof NodeSqliteConnection)) throw new Error('not a connection of this driver');
  return connection;
}

class NodeSqliteDriver implements Driver {
  private readonly writer: DatabaseSync;
  private readonly reader: DatabaseSync;
  private readonly lock: MainWriteLock;

  constructor(writer: DatabaseSync, reader: DatabaseSync, lock: MainWriteLock) {
    this.writer = writer;
    this.reader = reader;
    this.lock = lock;
  }

  init(): Promise<void> {
    return Promise.resolve();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new NodeSqliteConnection(this.writer, this.reader, this.lock));
  }

  beginTransaction(connection: DatabaseConnection): Promise<void> {
    return own(connection).begin();
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    own(connection).commit();
    return Promise.resolve();
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    own(connection).rollback();
    return Promise.resolve();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction Kysely left open (it never does) must not keep the lock.
    own(connection).rollback();
    return Promise.resolve();
  }

  destroy(): Promise<void> {
    if (this.reader.isOpen) this.reader.close();
    if (this.writer.isOpen) this.writer.close();
    return Promise.resolve();
  }
}

/** Kysely's SQLite dialect around a driver of ours. */
export class NodeSqliteDialect implements Dialect {
  private readonly driver: Driver;
  constructor(driver: Driver) {
    this.driver = driver;
  }
  createDriver(): Driver {
    return this.driver;
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

/** One connection to the file, in WAL mode (it creates the file). */
export function openSqliteConnection(file: string, options: { autoCheckpoint?: boolean } = {}): DatabaseSync {
  const native = new DatabaseSync(file);
  native.exec('PRAGMA journal_mode = WAL');
  native.exec('PRAGMA synchronous = NORMAL');
  native.exec('PRAGMA foreign_keys = ON');
  native.exec('PRAGMA busy_timeout = 5000');
  // A commit that crosses the WAL's threshold runs the checkpoint inside it; on the main thread
  // that would hold the event loop, so only the ingest writer's thread (and the checkpointer) do.
  if (options.autoCheckpoint === false) native.exec('PRAGMA wal_autocheckpoint = 0');
  return native;
}

/** The main thread's Kysely dialect for a database file (see above). */
export function openSqlite(file: string): { dialect: Dialect; native: DatabaseSync } {
  const native = openSqliteConnection(file, { autoCheckpoint: false });
  const reader = new DatabaseSync(file, { readOnly: true });
  reader.exec('PRAGMA busy_timeout = 5000');
  const lock = new MainWriteLock(writeLockOf(path.resolve(file)));
  return { dialect: new NodeSqliteDialect(new NodeSqliteDriver(native, reader, lock)), native };
}
