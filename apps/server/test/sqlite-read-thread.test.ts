/**
 * SQLite: history's long reads run in a thread of their own (sqlite-read-thread.ts): it answers
 * what the main connection committed, and refuses anything but a select.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';

describe('the SQLite reader thread', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads what the main connection committed, and only reads', async () => {
    const { db, reads } = t.app.ctx;
    expect(reads).not.toBe(db);
    const user = await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await db
      .insertInto('sessions')
      .values({ token_hash: 'read-thread', user_id: user.id, created_at: 0, expires_at: 1, revoked_at: null })
      .execute();
    const rows = await reads
      .selectFrom('sessions')
      .select(['token_hash', 'user_id'])
      .where('token_hash', '=', 'read-thread')
      .execute();
    expect(rows).toEqual([{ token_hash: 'read-thread', user_id: user.id }]);
    // Rows come back column by column: numbers, nulls and text in one column, and no rows at all.
    const mixed = await sql<{
      a: number | string | null;
      b: number;
    }>`select 1.5 as a, 2 as b union all select null, 3 union all select 'x', 4`.execute(reads);
    expect(mixed.rows).toEqual([
      { a: 1.5, b: 2 },
      { a: null, b: 3 },
      { a: 'x', b: 4 },
    ]);
    expect(await reads.selectFrom('sessions').select('token_hash').where('token_hash', '=', 'none').execute()).toEqual([]);
    await expect(reads.deleteFrom('sessions').where('token_hash', '=', 'read-thread').execute()).rejects.toThrow(
      /only runs selects/,
    );
    await expect(reads.transaction().execute(() => Promise.resolve())).rejects.toThrow(/no transactions/);
    expect(await db.selectFrom('sessions').select('token_hash').where('token_hash', '=', 'read-thread').execute()).toHaveLength(
      1,
    );
  });

  it('lets a process that has nothing else left end once it is closed', async () => {
    // The thread is unref'd; a close that waited on it unref'd too left the process ending
    // with the close pending (exit code 13) — a server that could not shut down by itself.
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-read-thread-'));
    try {
      const script = path.join(import.meta.dirname, 'fixtures', 'read-thread-exit.ts');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--disable-warning=ExperimentalWarning', script, path.join(dir, 'exit.db')],
        { timeout: 60_000 },
      );
      expect(stdout.trim()).toBe('closed after reading 2 rows');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
