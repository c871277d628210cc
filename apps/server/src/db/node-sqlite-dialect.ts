/**
 * Kysely's SQLite dialect speaks the better-sqlite3 interface; this adapts Node's built-in
 * node:sqlite (no native add-on to compile) to it.
 */
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

function toSqlite(value: unknown): SQLInputValue {
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

const writeIntents = new Map<string, Int32Array>();

/**
 * Shared between the threads of this process that write one database file: how many writes the
 * main thread has begun or is about to begin. The ingest writer's thread, which commits batch
 * after batch, waits for it to be 0 before each transaction (Atomics.wait), so that the main
 * thread's writes — which block the thread serving HTTP and MQTT while they wait for SQLite's
 * write lock — wait for one batch at most instead of being starved by the next ones (SQLite's
 * lock is not fair: a busy handler sleeping while another connection commits again and again
 * can wait its whole busy_timeout and fail).
 */
export function writeIntentOf(file: string): Int32Array {
  const key = path.resolve(file);
  let intent = writeIntents.get(key);
  if (!intent) {
    intent = new Int32Array(new SharedArrayBuffer(4));
    writeIntents.set(key, intent);
  }
  return intent;
}

/** In a thread that defers to the main thread's writes: waits until it has none under way. */
export function waitForMainThreadWrites(intent: Int32Array): void {
  for (let n = Atomics.load(intent, 0); n > 0; n = Atomics.load(intent, 0)) Atomics.wait(intent, 0, n, 50);
}

class NodeSqliteDatabase implements SqliteDatabase {
  readonly native: DatabaseSync;
  private readonly intent: Int32Array;
  constructor(native: DatabaseSync, intent: Int32Array) {
    this.native = native;
    this.intent = intent;
  }

  /** Whether this connection announced a transaction it has begun. */
  private holding = false;

  /** Runs a write, announcing it to the writer's thread for as long as it (or its transaction) lasts. */
  private announced<T>(text: string, write: () => T): T {
    const begins = text === 'begin immediate' && !this.holding;
    const ends = (text === 'commit' || text === 'rollback') && this.holding;
    const alone = !begins && !ends && !this.holding;
    if (begins || alone) Atomics.add(this.intent, 0, 1);
    if (begins) this.holding = true;
    try {
      return write();
    } catch (error) {
      if (begins) {
        this.holding = false;
        this.release();
      }
      throw error;
    } finally {
      if (ends) this.holding = false;
      if (alone || ends) this.release();
    }
  }

  private release(): void {
    if (Atomics.sub(this.intent, 0, 1) === 1) Atomics.notify(this.intent, 0);
  }

  close(): void {
    if (this.native.isOpen) this.native.close();
  }

  prepare(sql: string): SqliteStatement {
    // Kysely begins transactions with a deferred 'begin'. Another connection writes too (the
    // ingest writer's thread), and a deferred transaction that read before it writes cannot
    // wait for that writer: SQLite fails it at once (SQLITE_BUSY). An immediate one takes the
    // write lock first, waiting for it under busy_timeout.
    const text = sql === 'begin' ? 'begin immediate' : sql;
    const stmt = this.native.prepare(text);
    const reader = stmt.columns().length > 0;
    // A statement answering rows may still write (insert … returning): only a plain select is a read.
    const writes = !/^\s*(select|with|pragma)\b/i.test(text) || /\breturning\b/i.test(text);
    return {
      reader,
      all: (parameters) =>
        writes
          ? this.announced(text, () => stmt.all(...[...parameters].map(toSqlite)))
          : stmt.all(...[...parameters].map(toSqlite)),
      run: (parameters) => {
        const { changes, lastInsertRowid } = writes
          ? this.announced(text, () => stmt.run(...[...parameters].map(toSqlite)))
          : stmt.run(...[...parameters].map(toSqlite));
        return { changes, lastInsertRowid };
      },
      iterate: (parameters) => stmt.iterate(...[...parameters].map(toSqlite)),
    };
  }
}

export function openSqlite(file: string): { dialect: SqliteDialect; native: DatabaseSync } {
  const native = new DatabaseSync(file);
  native.exec('PRAGMA journal_mode = WAL');
  native.exec('PRAGMA synchronous = NORMAL');
  native.exec('PRAGMA foreign_keys = ON');
  native.exec('PRAGMA busy_timeout = 5000');
  return { dialect: new SqliteDialect({ database: new NodeSqliteDatabase(native, writeIntentOf(file)) }), native };
}
