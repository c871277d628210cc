/**
 * A request's writes in one transaction (db/request-transaction.ts), on the real databases:
 * begun at the first write (reads before it are not held), onBegin in it before that write,
 * db.transaction() inside as a savepoint, rollback undoing everything, afterCommit waiting for
 * the commit, and an observing scope noting writes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle, type Db } from '../src/db/database.ts';
import { afterCommit, outsideRequest, runInScope } from '../src/db/request-transaction.ts';
import { buildClient } from './factories.ts';
import { createPgDatabase, databaseKinds } from './harness.ts';
import type { ScratchDatabase } from './scratch.ts';

describe.each(databaseKinds)('request scopes on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Db;
  let dataDir: string;
  let pgDb: ScratchDatabase | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-scope-'));
    pgDb = kind === 'postgres' ? await createPgDatabase() : undefined;
    handle = await openDatabase({ dataDir, databaseUrl: pgDb?.url });
    db = handle.db;
  });
  afterEach(async () => {
    await handle.close();
    await pgDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const addClient = (name: string, executor: Db = db) => buildClient(executor, { groupId: 1, name });
  const clientNames = async () =>
    (await db.selectFrom('clients').select('client_name').orderBy('id').execute()).map((r) => r.client_name);
  const seeGroup = async () => {
    await db
      .insertInto('groups')
      .values({ group_name: 'G', account: 'a', code: 'g', description: '', logo: '', created_at: 0 })
      .execute();
  };

  beforeEach(async () => {
    await seeGroup();
  });

  it('begins at the first write, runs onBegin in it before that write, and commits every write at once', async () => {
    const seen: string[][] = [];
    await runInScope({ transaction: true, onBegin: async () => void seen.push(await clientNames()) }, async (scope) => {
      expect(await clientNames()).toEqual([]);
      expect(scope.connection).toBeUndefined();
      await addClient('A');
      expect(scope.connection).toBeDefined();
      await addClient('B');
      // Inside: the scope sees its own writes; outside it, no one does before the commit.
      expect(await clientNames()).toEqual(['A', 'B']);
      // Another request (outside the scope) does not see them before the commit.
      expect(await outsideRequest(clientNames)).toEqual([]);
      await scope.commit();
    });
    expect(seen).toEqual([[]]);
    expect(await clientNames()).toEqual(['A', 'B']);
  });

  it('rolls back every write of the scope, and drops what waited for the commit', async () => {
    const done: string[] = [];
    await runInScope({ transaction: true }, async (scope) => {
      await addClient('A');
      afterCommit(() => done.push('after A'));
      await db.transaction().execute(async (trx) => {
        await addClient('B', trx);
      });
      await scope.rollback();
    });
    expect(await clientNames()).toEqual([]);
    expect(done).toEqual([]);
  });

  it('makes db.transaction() a savepoint: its failure undoes its own writes only', async () => {
    await runInScope({ transaction: true }, async (scope) => {
      await addClient('A');
      await expect(
        db.transaction().execute(async (trx) => {
          await addClient('B', trx);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      await db.transaction().execute(async (trx) => {
        await addClient('C', trx);
      });
      await scope.commit();
    });
    expect(await clientNames()).toEqual(['A', 'C']);
  });

  it('starts afterCommit work after the commit (without waiting for it), outside the scope, and at once outside any scope', async () => {
    const order: string[] = [];
    afterCommit(() => order.push('no scope'));
    await runInScope({ transaction: true }, async (scope) => {
      await addClient('A');
      afterCommit(async () => {
        order.push(`after commit: ${(await clientNames()).join(',')}`);
        // Outside the closed scope, a write is its own.
        await addClient('B');
      });
      order.push('before commit');
      await scope.commit();
    });
    await vi.waitFor(async () => {
      expect(await clientNames()).toEqual(['A', 'B']);
    });
    expect(order).toEqual(['no scope', 'before commit', 'after commit: A']);
  });

  it('checks the answers of the statements it sent without waiting before it commits (a failed release refuses the commit)', async () => {
    await expect(
      runInScope({ transaction: true }, async (scope) => {
        try {
          await addClient('A');
          await db.transaction().execute(async (trx) => {
            await addClient('B', trx);
            // The scope's own release of this savepoint then fails (it is gone).
            await sql`release savepoint sluice_sp1`.execute(trx);
          });
          await scope.commit();
        } catch (error) {
          if (scope.state === 'open') await scope.rollback();
          throw error;
        }
      }),
    ).rejects.toThrow(/savepoint/i);
    expect(await clientNames()).toEqual([]);
  });

  it.runIf(kind === 'postgres')("sends BEGIN and onBegin's reads together, in the transaction the write then joins", async () => {
    let begunAt: unknown;
    const started = sql<{ at: string }>`select now()::text as at`;
    await runInScope(
      {
        transaction: true,
        onBegin: async () => {
          begunAt = (await started.execute(db)).rows[0]?.at;
        },
      },
      async (scope) => {
        await addClient('A');
        // now() is the transaction's start: the same in onBegin and after the write.
        expect((await started.execute(db)).rows[0]?.at).toBe(begunAt);
        await scope.commit();
      },
    );
    expect(begunAt).toBeDefined();
    expect(await clientNames()).toEqual(['A']);
  });

  it('notes whether an observed request wrote, and leaves its writes alone', async () => {
    const wrote = await runInScope({ transaction: false }, async (scope) => {
      await clientNames();
      const before = scope.wrote;
      await addClient('A');
      await scope.close();
      return [before, scope.wrote];
    });
    expect(wrote).toEqual([false, true]);
    expect(await clientNames()).toEqual(['A']);
  });
});
