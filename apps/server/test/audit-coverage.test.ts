/**
 * The audit trail covers every write, by the server's own route table (so a route added later is
 * checked too): every call that is not a GET declares what it changes or why it is exempt (the
 * server refuses to start otherwise; the exemptions are listed here), every call the server
 * accepts leaves entries of its route and every refused one none, no call (a GET included) writes
 * without declaring it, and no call changes or deletes an entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { apiRoutes, requestFor, routeName, wantsFile, type ApiRoute, type Ids } from './api-requests.ts';
import { buildUser } from './factories.ts';
import { buildTenantData, type TenantData } from './tenant-data.ts';

/** Routes that declare no audited change, each with the reason its declaration gives. */
const EXEMPT = ['POST /api/mqtt/auth', 'POST /api/mqtt/acl', 'GET /api/:kind/:deviceSn/DeviceVideo/:id/Token'];

/** Calls whose refusals are entries too (signing in). */
const RECORDS_REFUSALS = new Set(['POST /api/User']);

const ok = (status: number) => status >= 200 && status < 300;

describe.each(databaseKinds)('the audit trail of every route on %s', (kind) => {
  let t: TestApp;
  let tenant: TenantData;
  let routes: ApiRoute[];
  let token = '';

  /** Signs in a fresh administrator of the tenant (a call may end the session it used). */
  const signIn = async () => {
    const admin = await buildUser(t.app.ctx.db, { groupId: 1, roles: ['Administrator'] });
    token = await t.login(admin.account, admin.password);
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { SIM_API_URL: 'http://127.0.0.1:9', EZVIZ_API_URL: 'http://127.0.0.1:9' });
    tenant = await buildTenantData(t);
    routes = apiRoutes(t.app).filter((r) => r.method !== 'HEAD');
    await signIn();
  });
  afterAll(async () => {
    await t.close();
  });

  const declarationOf = (route: ApiRoute) =>
    t.app.routeTable.find((r) => r.url === route.url && r.method.split(',').includes(route.method))?.audit();

  it('declares on every route that is not a GET what it changes, or one of the listed exemptions', () => {
    const exempt = routes
      .filter((r) => {
        const declaration = declarationOf(r);
        return declaration !== undefined && 'exempt' in declaration;
      })
      .map(routeName);
    expect(exempt.sort()).toEqual([...EXEMPT].sort());
    const undeclared = routes.filter((r) => r.method !== 'GET' && declarationOf(r) === undefined).map(routeName);
    expect(undeclared).toEqual([]);
  });

  it('leaves entries of its route for every call accepted, none for every call refused, and changes no entry', async () => {
    const { db } = t.app.ctx;
    const snapshot = async () => {
      await t.app.ctx.audit.settle();
      return new Map(
        (await db.selectFrom('audit_log').selectAll().orderBy('id').execute()).map((r) => [r.id, JSON.stringify(r)]),
      );
    };
    const old = await snapshot();
    expect(old.size).toBeGreaterThan(0);
    const ids: Ids = { ownGroup: 1, id: 1, deviceSn: tenant.deviceSn, warnCode: tenant.warnCode };
    const problems: string[] = [];
    let accepted = 0;
    let refused = 0;
    for (const [i, route] of routes.entries()) {
      const name = routeName(route);
      const declaration = declarationOf(route);
      const audited = declaration !== undefined && 'subject' in declaration;
      const call = async (upload: boolean) => {
        await t.app.ctx.audit.settle();
        const last = (await db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())?.id ?? 0;
        const res = await t.call({ ...requestFor(route, ids, i, upload), token });
        await t.app.ctx.audit.settle();
        const entries = await db.selectFrom('audit_log').select(['route', 'action']).where('id', '>', last).execute();
        return { res, entries };
      };
      let { res, entries } = await call(false);
      if (wantsFile(res)) ({ res, entries } = await call(true));
      if (ok(res.statusCode) && audited) {
        accepted += 1;
        if (entries.length === 0) problems.push(`${name}: accepted (${String(res.statusCode)}) without an entry`);
        const others = entries.filter((e) => e.route !== name);
        if (others.length > 0) problems.push(`${name}: entries of other routes: ${others.map((e) => e.route).join(', ')}`);
      } else if (!ok(res.statusCode) && !RECORDS_REFUSALS.has(name)) {
        refused += 1;
        // A refused call as this administrator: a new sign-in after an ended session is its own entry, so look before it.
        if (entries.length > 0)
          problems.push(`${name}: refused (${String(res.statusCode)}) with entries: ${JSON.stringify(entries)}`);
      } else if (!audited && entries.length > 0) {
        problems.push(`${name}: not audited, yet left ${JSON.stringify(entries)}`);
      }
      if (res.statusCode === 401 || (await t.call({ method: 'GET', url: '/api/user/myinfo', token })).statusCode === 401)
        await signIn();
    }
    expect(problems).toEqual([]);
    // The pass means something: many calls were accepted and many refused.
    expect(accepted).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(40);
    expect([...t.app.auditGaps]).toEqual([]);
    const now = await snapshot();
    const changed = [...old].filter(([id, row]) => now.get(id) !== row).map(([id]) => id);
    expect(changed, 'entries changed or deleted through the API').toEqual([]);
  });
});
