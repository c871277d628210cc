/**
 * A device's control panel and its log's notes: GET {g}/{sn}/DeviceControl answers the type's
 * modules and controls with the definitions commands are checked against; POST {kind}/{sn}/DeviceLog
 * adds a note (device.control, a grant that is not view-only) and DELETE …/DeviceLog/{id} removes a
 * row (administrators). Refused calls change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceControlDto } from '@sluice/shared/device-control.schema';
import { DEVICE_LOG_STATE, type DeviceLogDto } from '@sluice/shared/telemetry.schema';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, type TestApp } from './harness.ts';
import { buildDataDefine, buildDevice, buildProject, buildRole, buildType, buildUser } from './factories.ts';

describe.each(databaseKinds)('device control panel and device log notes on %s', (kind) => {
  let t: TestApp;
  let g: number;
  let admin: string;
  /** Holds device.view and device.control with a full grant on the project. */
  let controller: string;
  /** Holds device.view only. */
  let viewer: string;
  /** Holds device.control, but its grant on the project is view-only. */
  let viewOnly: string;
  let otherAdmin: string;
  let sn: string;
  let unreached: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const users = await t.signInUsers();
    admin = users.admin;
    otherAdmin = users.otherAdmin;
    const db = t.app.ctx.db;
    g = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow()).group_id;

    const point = (key: string, type: string, format = '', unit = '') =>
      buildDataDefine(db, { groupId: g, key, name: `${key} name`, type, format, unit });
    const run = await point('PumpRun', 'boolean', '{"0":"Stop","1":"Run"}');
    const fault = await point('PumpFault', 'boolean2', '{"0":"Normal","1":"Fault"}');
    const level = await point('Level', 'readable', '{"Decimals":2}', 'm');
    const high = await point('LevelHigh', 'textbox', '{"Min":0,"Max":5,"Step":0.1}', 'm');
    const mode = await point('ControlMode', 'enum', '{"0":"Manual","1":"Auto","2":"Self-check"}');
    const stop = await point('OneKeyStop', 'boolean', '{"0":"Normal","1":"Stop"}');
    const type = await buildType(db, { groupId: g, points: [run.id, fault.id, level.id, high.id, mode.id, stop.id] });
    const t0 = { group_id: g, type_id: type.id };
    const module = async (module_name: string, sn: number) =>
      (
        await db
          .insertInto('type_modules')
          .values({ ...t0, module_name, sn })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const pumps = await module('Pumps', 1);
    const station = await module('Station', 2);
    await module('Nothing here', 3);
    const control = async (values: {
      module_id: number;
      control_key: string;
      control_name: string;
      data_define_id: number;
      show_type: string;
      sn: number;
      formula?: string;
    }) =>
      (
        await db
          .insertInto('type_module_controls')
          .values({ ...t0, ...values })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const pump = await control({
      module_id: pumps,
      control_key: 'PumpRun',
      control_name: 'Pump',
      data_define_id: run.id,
      show_type: 'switch',
      sn: 1,
    });
    await control({
      module_id: pumps,
      control_key: 'LevelHigh',
      control_name: 'High level',
      data_define_id: high.id,
      show_type: 'input',
      sn: 2,
      formula: '{"SettingValue":"LevelHigh","CurrentValue":"Level"}',
    });
    await control({
      module_id: station,
      control_key: 'ControlMode',
      control_name: 'Mode',
      data_define_id: mode.id,
      show_type: 'select',
      sn: 1,
    });
    await control({
      module_id: station,
      control_key: 'OneKeyStop',
      control_name: 'Stop all',
      data_define_id: stop.id,
      show_type: 'button',
      sn: 2,
    });
    await db
      .insertInto('type_module_feedbacks')
      .values([
        { ...t0, module_control_id: pump, data_define_id: run.id, sn: 1 },
        { ...t0, module_control_id: pump, data_define_id: fault.id, sn: 2 },
      ])
      .execute();

    const controlRole = await buildRole(db, { groupId: g, operates: ['device.view', 'device.control'] });
    const viewRole = await buildRole(db, { groupId: g, operates: ['device.view'] });
    const viewOnlyRole = await buildRole(db, { groupId: g, operates: ['device.view', 'device.control'] });
    const project = await buildProject(db, {
      groupId: g,
      roles: [{ roleId: controlRole }, { roleId: viewRole }, { roleId: viewOnlyRole, operate: 1 }],
    });
    const ctx = { db, deviceEvents: t.app.ctx.deviceEvents };
    const device = await buildDevice(ctx, { groupId: g, typeId: type.id, projectId: project, online: true });
    sn = device.sn;
    // The device's own data point narrows the type's: the panel shows what commands are checked against.
    await db
      .insertInto('device_data_defines')
      .values({
        group_id: g,
        device_sn: sn,
        panel_id: null,
        data_key: 'LevelHigh',
        data_name: 'Own high level',
        data_type: 'textbox',
        format: '{"Min":0,"Max":3,"Step":0.1}',
        unit: 'm',
      })
      .execute();
    unreached = (await buildDevice(ctx, { groupId: g, typeId: type.id, projectId: await buildProject(db, { groupId: g }) })).sn;

    const login = async (roleId: number) => {
      const u = await buildUser(db, { groupId: g, roles: [roleId] });
      return t.login(u.account, u.password);
    };
    controller = await login(controlRole);
    viewer = await login(viewRole);
    viewOnly = await login(viewOnlyRole);
  });

  afterAll(async () => {
    await t.close();
  });

  const panel = (token: string, device = sn, group = g) =>
    t.call({ method: 'GET', url: `/api/${String(group)}/${device}/DeviceControl`, token });

  it("answers the type's modules and controls with the definitions commands are checked against", async () => {
    const res = await panel(admin);
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: DeviceControlDto }>().data;
    expect(data).toMatchObject({ DeviceSn: sn, Online: true, CanControl: true, AlarmReset: null });
    expect(data.ControlMode).toMatchObject({ Key: 'ControlMode', DataType: 'enum', ShowType: 'select' });
    expect(data.OneKeyStop).toMatchObject({ Key: 'OneKeyStop', DataType: 'boolean', ShowType: 'button' });
    // The mode and one-key stop stand apart; a module with no controls left is not shown.
    expect(data.Modules.map((m) => m.ModuleName)).toEqual(['Pumps']);
    const [pump, high] = data.Modules[0]?.Controls ?? [];
    expect(pump).toMatchObject({
      ControlName: 'Pump',
      Point: { Key: 'PumpRun', DataType: 'boolean', ShowType: 'switch' },
      CurrentKey: null,
      Feedbacks: [
        { Key: 'PumpRun', DataType: 'boolean' },
        { Key: 'PumpFault', DataType: 'boolean2' },
      ],
    });
    expect(high).toMatchObject({
      ControlName: 'High level',
      Point: { Key: 'LevelHigh', Name: 'Own high level', Format: '{"Min":0,"Max":3,"Step":0.1}', Unit: 'm' },
      CurrentKey: 'Level',
      Current: { Key: 'Level', DataType: 'readable', Unit: 'm' },
    });
  });

  it('says who may control: device.control with a full grant, not device.view alone or a view-only grant', async () => {
    expect((await panel(controller)).json<{ data: DeviceControlDto }>().data.CanControl).toBe(true);
    expect((await panel(viewer)).json<{ data: DeviceControlDto }>().data.CanControl).toBe(false);
    expect((await panel(viewOnly)).json<{ data: DeviceControlDto }>().data.CanControl).toBe(false);
  });

  it('refuses the panel without a session, in another group, and for a device the user does not reach', async () => {
    expect((await t.call({ method: 'GET', url: `/api/${String(g)}/${sn}/DeviceControl` })).statusCode).toBe(401);
    expect((await panel(otherAdmin)).statusCode).toBe(403);
    expect((await panel(controller, unreached)).statusCode).toBe(404);
    expect((await panel(admin, 'NOSUCHDEVICE')).statusCode).toBe(404);
  });

  const note = (token: string, payload: Record<string, unknown>, device = sn, lang?: string) =>
    t.call({ method: 'POST', url: `/api/device/${device}/DeviceLog`, token, payload, ...(lang ? { lang } : {}) });
  const logRows = async () =>
    (await t.json<DeviceLogDto[]>({ method: 'GET', url: `/api/device/${sn}/DeviceLog?PageSize=100`, token: admin })).data;

  it('adds an operator’s note, by its author, found by search', async () => {
    const res = await note(controller, { Message: 'Cleaned the float switch', Key: 'LevelHigh' });
    expect(res.statusCode).toBe(200);
    const row = res.json<{ data: DeviceLogDto }>().data;
    expect(row).toMatchObject({
      State: DEVICE_LOG_STATE.note,
      Message: 'Cleaned the float switch',
      Key: 'LevelHigh',
      KeyName: 'Own high level',
    });
    expect(row.UserName).not.toBe('');
    const found = await t.json<DeviceLogDto[]>({
      method: 'GET',
      url: `/api/device/${sn}/DeviceLog?Search=float`,
      token: viewer,
    });
    expect(found.data.map((r) => r.Id)).toEqual([row.Id]);
  });

  it('refuses a note that is empty, about an unknown point, without device.control, on a view-only grant, or elsewhere', async () => {
    const before = (await logRows()).length;
    const empty = await note(controller, { Message: '  ' }, sn, 'zh-CN');
    expect(empty.statusCode).toBe(400);
    expect(fieldsOf(empty)).toEqual(['Message']);
    const unknown = await note(controller, { Message: 'x', Key: 'NoSuchKey' });
    expect(unknown.statusCode).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['Key']);
    expect((await note(viewer, { Message: 'x' })).statusCode).toBe(403);
    expect((await note(viewOnly, { Message: 'x' })).statusCode).toBe(403);
    expect((await note(controller, { Message: 'x' }, unreached)).statusCode).toBe(404);
    expect((await note(otherAdmin, { Message: 'x' })).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: `/api/device/${sn}/DeviceLog`, payload: { Message: 'x' } })).statusCode).toBe(
      401,
    );
    expect((await logRows()).length).toBe(before);
  });

  it('lets an administrator delete a row, and nobody else', async () => {
    const row = (await note(controller, { Message: 'To be removed' })).json<{ data: DeviceLogDto }>().data;
    const del = (token: string | undefined, device = sn, id = row.Id) =>
      t.call({ method: 'DELETE', url: `/api/device/${device}/DeviceLog/${String(id)}`, ...(token ? { token } : {}) });
    expect((await del(undefined)).statusCode).toBe(401);
    expect((await del(controller)).statusCode).toBe(403);
    expect((await del(otherAdmin)).statusCode).toBe(404);
    // The id must be of this device's log.
    expect((await del(admin, unreached)).statusCode).toBe(404);
    expect((await logRows()).some((r) => r.Id === row.Id)).toBe(true);
    expect((await del(admin)).statusCode).toBe(200);
    expect((await logRows()).some((r) => r.Id === row.Id)).toBe(false);
    expect((await del(admin)).statusCode).toBe(404);
  });
});
