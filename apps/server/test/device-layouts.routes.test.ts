/**
 * An account's arrangement of a device's page (DevicePanelLayout): kept per account and device,
 * read by whoever sees the device, written by those who manage devices, checked against the
 * 12-column grid; another account's or another tenant's layout is never reached, and a purged
 * device takes its layouts along.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelLayoutDto } from '@sluice/shared/panel-layout';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, type TestApp, type Users } from './harness.ts';
import { buildDevice, buildProject, buildUser, defaultRole } from './factories.ts';

describe.each(databaseKinds)('device panel layouts on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let g: number;
  let sn: string;
  let secondAdmin: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    g = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow()).group_id;
    const project = await buildProject(db, { groupId: g, roles: [{ roleId: await defaultRole(db, g, 'Operator') }] });
    sn = (await buildDevice({ db, deviceEvents: t.app.ctx.deviceEvents }, { groupId: g, projectId: project })).sn;
    await buildUser(db, { groupId: g, account: 'layoutboss', password: 'Layout12345', roles: ['Administrator'] });
    secondAdmin = await t.login('layoutboss', 'Layout12345');
  });

  afterAll(async () => {
    await t.close();
  });

  const layout = [
    { i: 'p1', x: 6, y: 0, w: 6, h: 7 },
    { i: 'base', x: 0, y: 0, w: 6, h: 5, hidden: true },
  ];
  const read = (token: string, device = sn) => t.call({ method: 'GET', url: `/api/DevicePanelLayout?deviceSn=${device}`, token });
  const save = (token: string, payload: Record<string, unknown>) =>
    t.call({ method: 'PUT', url: '/api/DevicePanelLayout', token, payload });

  it('keeps an account’s layout of a device, for that account alone, and forgets it on an empty one', async () => {
    expect((await read(users.admin)).json<{ data: PanelLayoutDto }>().data).toEqual({ deviceSn: sn, Layout: null });
    const saved = await save(users.admin, { deviceSn: sn, Layout: layout });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await read(users.admin)).json<{ data: PanelLayoutDto }>().data.Layout).toEqual(layout);
    // Another administrator of the group, and the operator, still see the default.
    expect((await read(secondAdmin)).json<{ data: PanelLayoutDto }>().data.Layout).toBeNull();
    expect((await read(users.operator)).json<{ data: PanelLayoutDto }>().data.Layout).toBeNull();
    // Saving again replaces it.
    const moved = [{ i: 'p1', x: 0, y: 0, w: 12, h: 9 }];
    expect((await save(users.admin, { deviceSn: sn, Layout: moved })).statusCode).toBe(200);
    expect((await read(users.admin)).json<{ data: PanelLayoutDto }>().data.Layout).toEqual(moved);
    expect((await save(users.admin, { deviceSn: sn, Layout: [] })).statusCode).toBe(200);
    expect((await read(users.admin)).json<{ data: PanelLayoutDto }>().data.Layout).toBeNull();
  });

  it('refuses a layout off the grid, naming the field, and callers who may not arrange or reach the device', async () => {
    await save(users.admin, { deviceSn: sn, Layout: layout });
    const offGrid = await save(users.admin, { deviceSn: sn, Layout: [{ i: 'p1', x: 8, y: 0, w: 6, h: 4 }] });
    expect(offGrid.statusCode).toBe(400);
    expect(fieldsOf(offGrid)).toEqual(['Layout.0.w']);
    const twice = await t.call({
      method: 'PUT',
      url: '/api/DevicePanelLayout',
      token: users.admin,
      lang: 'zh-CN',
      payload: { deviceSn: sn, Layout: [layout[0], layout[0]] },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('布局中每个面板只能出现一次');
    const badKey = await save(users.admin, { deviceSn: sn, Layout: [{ i: 'a b', x: 0, y: 0, w: 1, h: 1 }] });
    expect(fieldsOf(badKey)).toEqual(['Layout.0.i']);
    // The operator sees the device but does not manage devices; the other tenant does not reach it.
    expect((await save(users.operator, { deviceSn: sn, Layout: layout })).statusCode).toBe(403);
    expect((await save(users.otherAdmin, { deviceSn: sn, Layout: layout })).statusCode).toBe(404);
    expect((await read(users.otherAdmin)).statusCode).toBe(404);
    expect((await read(users.admin, 'NOSUCHDEVICE')).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/DevicePanelLayout?deviceSn=${sn}` })).statusCode).toBe(401);
    // Nothing refused changed the saved layout.
    expect((await read(users.admin)).json<{ data: PanelLayoutDto }>().data.Layout).toEqual(layout);
  });

  it('forgets every account’s layout of a purged device', async () => {
    const db = t.app.ctx.db;
    const doomed = (await buildDevice({ db, deviceEvents: t.app.ctx.deviceEvents }, { groupId: g })).sn;
    expect((await save(users.admin, { deviceSn: doomed, Layout: layout })).statusCode).toBe(200);
    expect((await save(secondAdmin, { deviceSn: doomed, Layout: layout })).statusCode).toBe(200);
    await t.call({ method: 'DELETE', url: `/api/${String(g)}/Device/${doomed}`, token: users.admin });
    expect((await t.call({ method: 'DELETE', url: `/api/Device/RecycleBin/${doomed}`, token: users.admin })).statusCode).toBe(
      200,
    );
    const left = await db.selectFrom('device_panel_layouts').select('id').where('device_sn', '=', doomed).execute();
    expect(left).toEqual([]);
    expect((await read(users.admin)).json<{ data: PanelLayoutDto }>().data.Layout).toEqual(layout);
  });
});
