/**
 * SQLite: the main thread's writes wait for another thread's transaction without blocking the
 * event loop (sqlite-write-lock.ts), and reads are not held up by a write waiting for its turn.
 * Before, a main-thread write slept in SQLite's busy handler for as long as the ingest writer's
 * thread held the write lock, and with it every request, MQTT message and timer.
 */
import path from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLockOf } from '../src/db/sqlite-write-lock.ts';
import { createTestApp, type TestApp } from './harness.ts';

describe('the SQLite write lock shared with the writer thread', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs queued writes one per turn of the event loop, not a whole queue in one go', async () => {
    const db = t.app.ctx.db;
    const user = await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    let done = 0;
    const writes = Array.from({ length: 50 }, (_, i) =>
      db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('sessions')
            .values({ token_hash: `queued-${String(i)}`, user_id: user.id, created_at: 0, expires_at: 1, revoked_at: null })
            .execute();
        })
        .then(() => (done += 1)),
    );
    // A connect storm marks thousands of devices online at once: before, the queue ran in one
    // chain of promises (4 s for 5,000 transactions) and nothing else was served meanwhile.
    const doneAtNextTurn = await new Promise<number>((resolve) =>
      setImmediate(() => {
        resolve(done);
      }),
    );
    await Promise.all(writes);
    expect(doneAtNextTurn).toBeLessThan(5);
    expect(done).toBe(50);
  });

  it('lets the event loop turn and reads answer while a write waits for a thread’s transaction', async () => {
    const db = t.app.ctx.db;
    const file = path.join(t.dataDir, 'sluice.db');
    const user = await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    const worker = new Worker(new URL('./fixtures/hold-write-lock.worker.ts', import.meta.url), {
      workerData: { file, lock: writeLockOf(file), userId: user.id },
    });
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    await new Promise((resolve) => worker.once('message', resolve));

    let written = false;
    const write = db
      .insertInto('sessions')
      .values({ token_hash: 'main', user_id: user.id, created_at: 0, expires_at: 1, revoked_at: null })
      .execute()
      .then(() => (written = true));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.updateTable('sessions').set({ revoked_at: 2 }).where('token_hash', '=', 'main').execute();
    });
    for (let i = 0; i < 20; i++) await turn();
    const read = await db.selectFrom('sessions').select('token_hash').where('token_hash', 'in', ['main', 'thread']).execute();
    // The loop turned and the read answered, from before either write committed.
    expect(read).toEqual([]);
    expect(written).toBe(false);

    worker.postMessage('commit');
    await write;
    await transaction;
    await exited;
    const rows = await db
      .selectFrom('sessions')
      .select(['token_hash', 'revoked_at'])
      .where('token_hash', 'in', ['main', 'thread'])
      .orderBy('token_hash')
      .execute();
    expect(rows).toEqual([
      { token_hash: 'main', revoked_at: 2 },
      { token_hash: 'thread', revoked_at: null },
    ]);
  });
});
