import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';

describe.each(databaseKinds)('health probes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { MQTT_PORT: '0', HOST: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers /healthz without a session while the process serves', async () => {
    const res = await t.call({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'alive' });
  });

  it('is ready only once the broker takes work, with the database reachable and migrated', async () => {
    const before = await t.call({ method: 'GET', url: '/readyz' });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toMatchObject({ status: 'not ready', database: 'ok', migrations: 'ok', broker: 'not started' });

    await t.app.live.start();
    const after = await t.call({ method: 'GET', url: '/readyz' });
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'ok', broker: 'ok' });
  });

  it('is not ready while a migration this server knows has not run', async () => {
    const db = t.app.ctx.db;
    const last = await db
      .selectFrom('kysely_migration' as never)
      .select(['name' as never, 'timestamp' as never])
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    const row = last as { name: string; timestamp: string };
    await db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', row.name as never)
      .execute();
    try {
      const res = await t.call({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not ready', migrations: `pending: ${row.name}` });
    } finally {
      await db
        .insertInto('kysely_migration' as never)
        .values(row)
        .execute();
    }
    expect((await t.call({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});
