/** Opens the database: node:sqlite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './tables.ts';
import { migrate, type DialectName } from './migrations.ts';
import { openSqlite } from './node-sqlite-dialect.ts';
import { openReadThread } from './sqlite-read-thread.ts';
import { scopedDialect } from './request-transaction.ts';

// int8 and numeric columns hold epoch milliseconds and counts, well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  /** The app's database; a request's queries go through its scope (request-transaction.ts). */
  db: Db;
  /** For long reads (history): on SQLite selects run in a thread of their own (sqlite-read-thread.ts); on PostgreSQL `db`. */
  reads: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

/**
 * PostgreSQL: a pool of its own for one job (the ingest writer's commits), so that they never
 * queue behind the many short queries of the app's pool.
 */
export function openPgPool(databaseUrl: string, connections: number): Db {
  return new Kysely<Database>({ dialect: pgDialect(databaseUrl, connections) });
}

/** `pipeline`: a connection sends a statement before the previous one is answered (pg's pipeline mode). */
const pgDialect = (databaseUrl: string, connections: number, pipeline = false) =>
  new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: connections, pipeline }) });

/** Whether the database answers (readiness): resolves, or rejects with the driver's error. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function openDatabase(options: {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Migrate only up to this migration (the upgrade test's database of the previous release). */
  migrateUpTo?: string;
}): Promise<DatabaseHandle> {
  let db: Db;
  let reads: Db;
  let dialect: DialectName;
  if (options.databaseUrl) {
    dialect = 'postgres';
    // Pipelined: an audited call's BEGIN, savepoints and releases cost no round trip of their own.
    db = new Kysely<Database>({ dialect: scopedDialect(pgDialect(options.databaseUrl, 10, true), { pipelined: true }) });
    reads = db;
  } else {
    dialect = 'sqlite';
    mkdirSync(options.dataDir, { recursive: true });
    const file = path.join(options.dataDir, 'sluice.db');
    db = new Kysely<Database>({ dialect: scopedDialect(openSqlite(file).dialect) });
    reads = openReadThread(file);
  }
  const close = async () => {
    if (reads !== db) await reads.destroy();
    await db.destroy();
  };
  try {
    await migrate(db as Kysely<unknown>, dialect, options.migrateUpTo);
  } catch (error) {
    await close();
    throw error;
  }
  return { db, reads, dialect, close };
}
