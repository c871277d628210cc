/**
 * Every API route, taken from the server's route table (so a route added later is tried too):
 * it declares who may call it (a permission, or an exemption below saying why any signed-in user
 * may), refuses a caller without a session, refuses a user lacking its permission, and gives
 * another tenant's administrator, calling with the tenant's own ids, nothing of the tenant's:
 * no answer that holds its data or differs from the answer for ids that exist nowhere, and no
 * change to any of its rows (tenant-data.ts puts a row of it in every table).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { PERMISSION_MODULES, type OperateCode } from '@sluice/shared/permissions';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { apiRoutes, requestFor, routeName, wantsFile, type ApiRoute, type Ids } from './api-requests.ts';
import { buildRole, buildTenant, buildUser, defaultRole } from './factories.ts';
import { MARKER, buildTenantData, type TenantData } from './tenant-data.ts';

/**
 * Routes open to every signed-in user (or to anyone), each group with the reason. A route that
 * declares no permission must be here; one that is here must exist.
 */
const EXEMPT: Record<string, string[]> = {
  'Signing in, registering, and what a mobile app or an external broker calls without a session (app.test.ts lists them too)': [
    'POST /api/User',
    'POST /api/user/Register',
    'GET /api/AppVersion/latest',
    'POST /api/mqtt/auth',
    'POST /api/mqtt/acl',
  ],
  'The caller’s own account, session, settings and group (and the avatars of the group’s users)': [
    'POST /api/user/UserUpdateToken',
    'GET /api/user/logout',
    'GET /api/user/myinfo',
    'GET /api/user/GetUser',
    'PUT /api/user',
    'POST /api/user/password',
    'GET /api/user/config',
    'PUT /api/user/config',
    'POST /api/user/Picture',
    'DELETE /api/user/Picture',
    'GET /api/user/Picture/:id',
    'GET /api/Group/FindByName',
    'GET /api/group/:id',
    'GET /api/SysMenu/GetUserMenu',
    'GET /api/SysMenu/GetSubMenu',
    'GET /api/Mqtt/Config',
  ],
  'Reference data the same for everyone: China’s administrative areas, the console’s map and live configuration': [
    'GET /api/Area/GetArea',
    'GET /api/Area/GetListArea',
    'GET /api/Area/GetParentArea',
    'GET /api/config/client',
  ],
  'Reading what describes the group’s devices (the data point library, categories, warn types and codes, device types with their parts and templates, panel kinds): every user of the group sees devices through them; changing them needs system.manage':
    [
      'GET /api/DataDefineLibrary',
      'GET /api/DataDefineLibrary/All',
      'GET /api/DataDefineLibrary/:id',
      'GET /api/Category',
      'GET /api/Category/All',
      'GET /api/Category/:id',
      'GET /api/DataDefineWarnCode/pages',
      'GET /api/DataDefineWarnCode',
      'GET /api/DataDefineWarnCode/:id',
      'GET /api/warntype/pages',
      'GET /api/warntype',
      'GET /api/warntype/:id',
      'GET /api/warnCode',
      'GET /api/WarnCode/GetWarnCode',
      'GET /api/WarnCode/GetWarnCode/:code',
      'GET /api/Type',
      'GET /api/DeviceType/GetDeviceType',
      'GET /api/Type/:id',
      ...[
        'TypeDataDefine',
        'TypeArgument',
        'TypeConfig',
        'typedisplayIcon',
        'TypeHardWareConfig',
        'TypeModule',
        'Typeclass',
        'TypeModuleControl',
        'TypeModuleFeedback',
        'typeoverview',
        'TypeSchema',
        'TypeStatistics',
        'TypeMaintenance',
        'TypeImage',
        'TypeUpdateFile',
      ].flatMap((part) => [`GET /api/type/:typeId/${part}`, `GET /api/type/:typeId/${part}/:id`]),
      'GET /api/module/:moduleId/TypeModuleArgument',
      'GET /api/module/:moduleId/TypeModuleArgument/:id',
      'GET /api/type/:typeId/TypeDataDefine/keys',
      'GET /api/type/:typeId/TypeModuleControl/Module/:moduleId',
      'GET /api/type/:typeId/TypeSchema/Tree',
      'GET /api/GetDeviceTypeTemplatePage',
      'GET /api/GetDeviceTypeTemplate',
      'GET /api/TemplateProfile',
      'GET /api/TypeTemplatePanel',
      'GET /api/TypeTemplateArgs',
      'GET /api/TypeTemplateAccessory',
      'GET /api/TypeTemplateControlData',
      'GET /api/TypeTemplateConfig',
      'GET /api/DevicePanelType/Get',
    ],
  'The group’s mobile app packages, which every user installs': [
    'GET /api/appVersion',
    'GET /api/appVersion/:id',
    'GET /api/AppVersion/get',
  ],
};

const OPERATES = PERMISSION_MODULES.flatMap<OperateCode>((m) => m.operates.map((o) => o.Code));

/** An answer with what varies between two calls masked (numbers, the ids sent, tokens, times). */
function comparable(res: LightMyRequestResponse, sent: string[]): string {
  let body = res.body;
  for (const value of sent) body = body.split(value).join('<sent>');
  try {
    return JSON.stringify(
      JSON.parse(body, (_key, value: unknown) => {
        if (typeof value === 'number') return 0;
        // Tokens, file keys and times: runs of 16 or more letters and digits, and ISO dates.
        if (typeof value === 'string') return value.replace(/[A-Za-z0-9+/=_-]{16,}|\d{4}-\d\d-\d\d[T ][\d:.]+Z?/g, '<varies>');
        return value;
      }),
    );
  } catch {
    return body;
  }
}

const ok = (res: LightMyRequestResponse) => res.statusCode >= 200 && res.statusCode < 300;

describe.each(databaseKinds)('every API route on %s', (kind) => {
  let t: TestApp;
  let tenant: TenantData;
  let routes: ApiRoute[];
  let stranger: { account: string; password: string; groupId: number };
  let strangerToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { SIM_API_URL: 'http://127.0.0.1:9' });
    // The tenant's rows first, so that they are the first of every table (tenant-data.ts).
    tenant = await buildTenantData(t);
    const other = await buildTenant(t.app.ctx.db, { groupName: 'Stranger Water' });
    stranger = { account: other.account, password: other.password, groupId: other.groupId };
    strangerToken = await t.login(stranger.account, stranger.password);
    routes = apiRoutes(t.app, true);
  });
  afterAll(async () => {
    await t.close();
  });

  it('declares who may call each route: a permission, or a reason why every signed-in user may', () => {
    const exempt = new Set(Object.values(EXEMPT).flat());
    const undeclared = routes
      .filter((r) => r.method !== 'HEAD' && (r.access === undefined || r.access === 'public' || r.access === 'session'))
      .map(routeName)
      .filter((name) => !exempt.has(name));
    expect(undeclared, 'routes open to every signed-in user without a reason in EXEMPT').toEqual([]);
    const names = new Set(routes.map(routeName));
    expect(
      [...exempt].filter((name) => !names.has(name)),
      'EXEMPT names routes that do not exist',
    ).toEqual([]);
  });

  it('refuses every route that is not public to a caller without a session', async () => {
    const open: string[] = [];
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const res = await t.call(
        requestFor(route, { ownGroup: 1, id: 1, deviceSn: tenant.deviceSn, warnCode: tenant.warnCode }, 1),
      );
      if (res.statusCode !== 401) open.push(`${routeName(route)} → ${String(res.statusCode)}`);
    }
    expect(open).toEqual([]);
  });

  it('refuses every route to a user of the group who lacks its permission', async () => {
    const db = t.app.ctx.db;
    const tokens = new Map<string, string>();
    const signIn = async (key: string, roles: number[]) => {
      const user = await buildUser(db, { groupId: 1, roles });
      tokens.set(key, await t.login(user.account, user.password));
    };
    await signIn('admin', [await buildRole(db, { groupId: 1, operates: OPERATES })]);
    await signIn('platform', [await defaultRole(db, 1, 'Administrator')]);
    const needed = new Set(routes.map((r) => (typeof r.access === 'object' ? r.access.operate : undefined)));
    for (const operate of OPERATES.filter((o) => needed.has(o))) {
      await signIn(operate, [await buildRole(db, { groupId: 1, operates: OPERATES.filter((o) => o !== operate) })]);
    }
    const own: Ids = { ownGroup: 1, id: 1, deviceSn: tenant.deviceSn, warnCode: tenant.warnCode };
    const allowed: string[] = [];
    let tried = 0;
    for (const route of routes) {
      const access = route.access;
      const key = typeof access === 'object' ? access.operate : access === 'admin' || access === 'platform' ? access : undefined;
      if (!key) continue;
      tried += 1;
      const res = await t.call({ ...requestFor(route, own, 1), token: tokens.get(key) ?? '' });
      if (res.statusCode !== 403) allowed.push(`${routeName(route)} (needs ${key}) → ${String(res.statusCode)}`);
    }
    expect(tried).toBeGreaterThan(100);
    expect(allowed).toEqual([]);
  });

  it("gives another tenant's administrator nothing of the tenant's, whichever of its ids they send, and changes none of its rows", async () => {
    const nowhere: Ids = { ownGroup: stranger.groupId, id: 999_999, deviceSn: 'SLNOWHERE001', warnCode: 'NOWHERE1' };
    const theirs: Ids = { ownGroup: stranger.groupId, id: 1, deviceSn: tenant.deviceSn, warnCode: tenant.warnCode };
    const sent = [tenant.deviceSn, tenant.warnCode, nowhere.deviceSn, nowhere.warnCode];
    const call = async (options: InjectOptions) => {
      let res = await t.call({ ...options, token: strangerToken });
      if (res.statusCode === 401) {
        // A call before this one ended the stranger's session (signing out, a new token): sign in again.
        strangerToken = await t.login(stranger.account, stranger.password);
        res = await t.call({ ...options, token: strangerToken });
      }
      return res;
    };
    const leaks: string[] = [];
    let before = await tenant.snapshot();
    for (const [i, route] of routes.filter((r) => r.method !== 'HEAD').entries()) {
      const name = routeName(route);
      let control = await call(requestFor(route, nowhere, i));
      const upload = wantsFile(control);
      if (upload) control = await call(requestFor(route, nowhere, i, true));
      const probe = await call(requestFor(route, theirs, i, upload));
      if (probe.statusCode >= 500) leaks.push(`${name}: ${String(probe.statusCode)} ${probe.body.slice(0, 200)}`);
      if (ok(probe) && probe.body.includes(MARKER))
        leaks.push(`${name}: the answer holds the tenant's data: ${probe.body.slice(0, 300)}`);
      else if (ok(probe) && !ok(control)) {
        leaks.push(
          `${name}: ${String(probe.statusCode)} with the tenant's ids, ${String(control.statusCode)} with ids of nothing`,
        );
      } else if (ok(probe) && comparable(probe, sent) !== comparable(control, sent)) {
        leaks.push(`${name}: the answer with the tenant's ids differs from the one with ids of nothing`);
      }
      const after = await tenant.snapshot();
      const changed = [...after.tables].filter(([table, rows]) => before.tables.get(table) !== rows).map(([table]) => table);
      if (changed.length > 0) leaks.push(`${name}: changed the tenant's ${changed.join(', ')}`);
      if (after.markedElsewhere.length > 0)
        leaks.push(`${name}: copied the tenant's data into ${after.markedElsewhere.join(', ')}`);
      before = after;
    }
    expect(leaks).toEqual([]);
    // The tenant's administrator still signs in: nothing locked them out.
    expect(await t.login(ADMIN.account, ADMIN.password)).toBeTruthy();
  });
});
