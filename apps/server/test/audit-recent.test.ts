/**
 * The newest audit entries (migration 0034): on SQLite an audited write adds its entry to
 * audit_recent, and entries move into audit_log soon after, or at once when the trail is read,
 * each exactly once and with its id; on PostgreSQL entries go straight into audit_log (what an
 * older server left in audit_recent is moved all the same).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEntryDto } from '@sluice/shared/audit.schema';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { AuditRepository } from '../src/modules/audit/audit.repository.ts';

describe.each(databaseKinds)('the newest audit entries on %s', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.login(ADMIN.account, ADMIN.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const rows = (table: 'audit_log' | 'audit_recent') =>
    t.app.ctx.db.selectFrom(table).select(['id', 'resource_name']).orderBy('id').execute();
  const addClient = async (name: string) => {
    const res = await t.call({ method: 'POST', url: '/api/Client/Add', token, payload: { ClientName: name } });
    expect(res.statusCode).toBe(201);
  };

  it.runIf(kind === 'sqlite')(
    'finds an entry written a moment ago in the trail, moved with its id, and numbers the next after it',
    async () => {
      await t.app.ctx.audit.settle();
      await addClient('Fresh');
      const waiting = await rows('audit_recent');
      expect(waiting.map((r) => r.resource_name)).toEqual(['Fresh']);

      const list = await t.json<AuditEntryDto[]>({ method: 'GET', url: '/api/AuditLog?PageSize=1', token });
      expect(list.data[0]?.ResourceName).toBe('Fresh');
      expect(list.data[0]?.Id).toBe(waiting[0]?.id);
      expect(await rows('audit_recent')).toEqual([]);

      await addClient('Next');
      const [next] = await rows('audit_recent');
      expect(next?.id).toBeGreaterThan(waiting[0]?.id ?? Infinity);
    },
  );

  it('keeps every character of what it records (on PostgreSQL the entry is written out with the commit)', async () => {
    const name = `O'Brien \\ "水厂" 100% $1 ?; -- \u00e9`;
    await addClient(name);
    const list = await t.json<AuditEntryDto[]>({ method: 'GET', url: '/api/AuditLog?PageSize=1', token });
    const entry = list.data[0];
    expect(entry?.ResourceName).toBe(name);
    const detail = await t.json<{ After: { ClientName: string } }>({
      method: 'GET',
      url: `/api/AuditLog/${String(entry?.Id)}`,
      token,
    });
    expect(detail.data.After.ClientName).toBe(name);
  });

  it.runIf(kind === 'postgres')('writes an entry straight into audit_log', async () => {
    await addClient('Straight');
    expect(await rows('audit_recent')).toEqual([]);
    expect((await rows('audit_log')).map((r) => r.resource_name)).toContain('Straight');
  });

  it.runIf(kind === 'sqlite')('moves the entries by itself soon after they are written', async () => {
    await addClient('Later');
    expect((await rows('audit_recent')).length).toBeGreaterThan(0);
    await vi.waitFor(
      async () => {
        expect(await rows('audit_recent')).toEqual([]);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect((await rows('audit_log')).map((r) => r.resource_name)).toContain('Later');
  });

  it.runIf(kind === 'sqlite')('moves each entry once when moves run at once, also by two instances on one database', async () => {
    await t.app.ctx.audit.settle();
    const before = (await rows('audit_log')).length;
    for (let i = 0; i < 20; i++) await addClient(`Many ${String(i)}`);
    const other = new AuditRepository(t.app.ctx.db, t.app.ctx.dialect);
    await Promise.all([t.app.ctx.audit.settle(), other.settle(), t.app.ctx.audit.settle(), other.settle()]);
    const after = await rows('audit_log');
    expect(after.length).toBe(before + 20);
    expect(new Set(after.map((r) => r.id)).size).toBe(after.length);
    expect(await rows('audit_recent')).toEqual([]);
  });
});
