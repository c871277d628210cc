/**
 * Kysely's SQLite dialect speaks the better-sqlite3 interface; this adapts Node's built-in
 * node:sqlite (no native add-on to compile) to it.
 */
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

class NodeSqliteDatabase implements SqliteDatabase {
  readonly native: DatabaseSync;
  constructor(native: DatabaseSync) {
    this.native = native;
  }
  close(): void {
    if (this.native.isOpen) this.native.close();
  }
  prepare(sql: string): SqliteStatement {
    // Kysely begins transactions with a deferred 'begin'. Another connection writes too (the
    // ingest writer's thread), and a deferred transaction that read before it writes cannot
    // wait for that writer: SQLite fails it at once (SQLITE_BUSY). An immediate one takes the
    // write lock first, waiting for it under busy_timeout.
    const stmt = this.native.prepare(sql === 'begin' ? 'begin immediate' : sql);
    const reader = stmt.columns().length > 0;
    return {
      reader,
      all: (parameters) => stmt.all(...[...parameters].map(toSqlite)),
      run: (parameters) => {
        const { changes, lastInsertRowid } = stmt.run(...[...parameters].map(toSqlite));
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
  return { dialect: new SqliteDialect({ database: new NodeSqliteDatabase(native) }), native };
}
