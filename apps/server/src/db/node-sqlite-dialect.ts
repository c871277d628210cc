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
    const stmt = this.native.prepare(sql);
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
