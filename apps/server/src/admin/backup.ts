/**
 * npm run db:backup -- --to FILE          (the server may run)
 * npm run db:restore -- --from FILE       (the server stopped)
 *
 * The embedded SQLite database (DATA_DIR/sluice.db). A backup is `VACUUM INTO`: one read
 * transaction, so the copy is the database as of one instant however much the running server
 * writes meanwhile (WAL lets it go on), compacted, and never a half-written file (it is written
 * beside the target and renamed). A restore checks the copy (integrity, Sluice's tables), keeps
 * the current database beside it as sluice.db.before-restore-<time>, and puts the copy in place;
 * it refuses while a server has the database open (its write-ahead log is there). Uploaded files
 * (DATA_DIR/uploads, or the bucket with STORAGE=s3) and DATA_DIR/secret.key are kept apart: back
 * them up with the database.
 * On PostgreSQL (DATABASE_URL) use PostgreSQL's own tools (pg_dump, pg_restore, or base backups
 * with WAL archiving); see docs/deploy.md.
 */
import { existsSync, renameSync, rmSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { ConfigError, loadConfig } from '../config.ts';

class BackupError extends Error {}

const DB_FILE = 'sluice.db';

function check(file: string): void {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const integrity = db.prepare('pragma integrity_check').all() as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') {
      throw new BackupError(`${file} is damaged: ${integrity.map((r) => r.integrity_check).join('; ')}`);
    }
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name in ('kysely_migration', 'devices')")
      .all();
    if (tables.length !== 2) throw new BackupError(`${file} is not a Sluice database (no migrations or devices table).`);
  } finally {
    db.close();
  }
}

/** Writes a consistent copy of the database in DATA_DIR to `to`; answers its size in bytes. */
export function backupSqlite(dataDir: string, to: string): void {
  const source = path.join(dataDir, DB_FILE);
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source}.`);
  if (existsSync(to)) throw new BackupError(`${to} exists already; name a new file.`);
  const partial = `${to}.partial`;
  rmSync(partial, { force: true });
  const db = new DatabaseSync(source);
  try {
    // The server's writer may hold the write lock for a batch: wait for it rather than fail.
    db.exec('pragma busy_timeout = 30000');
    db.prepare('vacuum into ?').run(partial);
  } finally {
    db.close();
  }
  check(partial);
  renameSync(partial, to);
}

/** Puts the copy `from` in place of the database in DATA_DIR; answers where the previous one was kept. */
export function restoreSqlite(dataDir: string, from: string, now = new Date()): string | undefined {
  if (!existsSync(from)) throw new BackupError(`There is no file ${from}.`);
  check(from);
  const target = path.join(dataDir, DB_FILE);
  if (existsSync(`${target}-wal`)) {
    throw new BackupError(
      `A server has ${target} open (its write-ahead log ${target}-wal is there): stop it first. After a crash, start and stop the server once.`,
    );
  }
  let kept: string | undefined;
  if (existsSync(target)) {
    kept = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(target, kept);
    rmSync(`${target}-shm`, { force: true });
  }
  copyFileSync(from, `${target}.partial`);
  renameSync(`${target}.partial`, target);
  return kept;
}

function main(): void {
  const { values: args } = parseArgs({ options: { to: { type: 'string' }, from: { type: 'string' } } });
  const config = loadConfig();
  if (config.DATABASE_URL) {
    throw new BackupError(
      'DATABASE_URL names PostgreSQL: back it up with its own tools (pg_dump -Fc, pg_restore; or base backups with WAL archiving). See docs/deploy.md.',
    );
  }
  if (args.to && !args.from) {
    backupSqlite(config.DATA_DIR, path.resolve(args.to));
    const uploads =
      config.STORAGE === 's3'
        ? `The uploads are in the bucket ${config.S3_BUCKET ?? ''} (STORAGE=s3): back it up with the store's own tools (docs/deploy.md), and copy ${config.DATA_DIR}/secret.key with the database.`
        : `Copy ${config.DATA_DIR}/uploads and secret.key with it.`;
    console.log(`Backed up ${path.join(config.DATA_DIR, DB_FILE)} to ${args.to}. ${uploads}`);
  } else if (args.from && !args.to) {
    const kept = restoreSqlite(config.DATA_DIR, path.resolve(args.from));
    console.log(
      `Restored ${args.from} into ${path.join(config.DATA_DIR, DB_FILE)}` +
        (kept ? `; the previous database is kept as ${kept}.` : '.'),
    );
  } else {
    throw new BackupError('Give --to FILE (back up) or --from FILE (restore).');
  }
}

try {
  main();
} catch (error) {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
