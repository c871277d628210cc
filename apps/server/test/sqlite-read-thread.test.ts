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
import { selectColumns } from '../src/db/select-columns.ts';
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

  it('answers a select as columns without row objects, as the main connection does from its rows', async () => {
    const { db, reads } = t.app.ctx;
    const user = await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await db
      .insertInto('sessions')
      .values([
        { token_hash: 'columns-1', user_id: user.id, created_at: 10, expires_at: 11, revoked_at: null },
        { token_hash: 'columns-2', user_id: user.id, created_at: 20, expires_at: 21, revoked_at: 22 },
      ])
      .execute();
    const query = (on: typeof db) =>
      on
        .selectFrom('sessions')
        .select(['token_hash', 'created_at', 'revoked_at'])
        .where('token_hash', 'like', 'columns-%')
        .orderBy('created_at');
    const threaded = await selectColumns(reads, query(reads));
    // Numbers come as a Float64Array from the thread; a column with a null in it as a plain array.
    expect(threaded.created_at).toBeInstanceOf(Float64Array);
    const plain = (c: typeof threaded) => ({
      length: c.length,
      token_hash: Array.from(c.token_hash),
      created_at: Array.from(c.created_at),
      revoked_at: Array.from(c.revoked_at),
    });
    expect(plain(threaded)).toEqual({
      length: 2,
      token_hash: ['columns-1', 'columns-2'],
      created_at: [10, 20],
      revoked_at: [null, 22],
    });
    expect(plain(await selectColumns(db, query(db)))).toEqual(plain(threaded));
    expect((await selectColumns(reads, query(reads).where('token_hash', '=', 'none'))).length).toBe(0);
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
