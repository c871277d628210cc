/**
 * The audit trail's retention (AUDIT_RETENTION_DAYS, two years by default, checked at boot),
 * run by the retention job in chunks; and the switch that turns the trail off for its benchmark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { AuditRepository } from '../src/modules/audit/audit.repository.ts';
import { deleteExpiredAudit } from '../src/modules/telemetry/retention.job.ts';

const DAY = 86_400_000;

describe('the audit retention setting', () => {
  it('keeps entries two years unless told, and refuses a value that is not a number of days, naming it', () => {
    expect(loadConfig({}).AUDIT_RETENTION_DAYS).toBe(730);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '0' }).AUDIT_RETENTION_DAYS).toBe(0);
    for (const bad of ['-1', 'two years', '1.5']) {
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: bad })).toThrow(/AUDIT_RETENTION_DAYS/);
    }
  });
});

describe.each(databaseKinds)('audit retention on %s', (kind) => {
  let t: TestApp;
  const now = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { AUDIT_RETENTION_DAYS: '30' });
  });
  afterAll(async () => {
    await t.close();
  });

  const addEntries = async (ageDays: number, count: number) => {
    for (let i = 0; i < count; i++) {
      await t.app.ctx.db
        .insertInto('audit_log')
        .values({ at: now - ageDays * DAY - i, group_id: 1, user_id: 1, action: 'update', resource_kind: 'client' })
        .execute();
    }
  };
  const ages = async () =>
    (await t.app.ctx.db.selectFrom('audit_log').select('at').orderBy('at').execute()).map((r) => Math.round((now - r.at) / DAY));

  it('deletes the entries older than AUDIT_RETENTION_DAYS with the retention job, and keeps the rest', async () => {
    await addEntries(40, 3);
    await addEntries(10, 2);
    const report = await t.app.live.retention.run(now);
    expect(report.audit).toBe(3);
    expect(await ages()).toEqual([10, 10]);
  });

  it('deletes in chunks until none older is left', async () => {
    await addEntries(50, 5);
    const repository = new AuditRepository(t.app.ctx.db, t.app.ctx.dialect);
    const chunks: number[] = [];
    const counting = Object.assign(Object.create(repository) as AuditRepository, {
      deleteExpired: async (groupId: number | null, cutoff: number, limit: number) => {
        const deleted = await repository.deleteExpired(groupId, cutoff, limit);
        chunks.push(deleted);
        return deleted;
      },
    });
    expect(await deleteExpiredAudit(counting, now - 30 * DAY, 2, () => false)).toBe(5);
    // Tenant 1's three chunks, then none of the entries of no tenant.
    expect(chunks).toEqual([2, 2, 1, 0]);
    expect(await ages()).toEqual([10, 10]);
  });
});

describe('the audit trail turned off (for bench:audit only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { AUDIT_TRAIL: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes as before and leaves no entry', async () => {
    const token = await t.login(ADMIN.account, ADMIN.password);
    const res = await t.call({ method: 'POST', url: '/api/Client/Add', token, payload: { ClientName: 'Unaudited' } });
    expect(res.statusCode).toBe(201);
    await t.app.ctx.audit.settle();
    expect(await t.app.ctx.db.selectFrom('audit_log').select('id').execute()).toEqual([]);
  });
});
