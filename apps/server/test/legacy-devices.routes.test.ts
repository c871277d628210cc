import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, OPERATOR, createTestApp, databaseKinds, fieldsOf, type Body, type TestApp } from './harness.ts';
import { buildDevice, buildRegion, buildSites, defaultRole, type BuiltSites } from './factories.ts';

interface Device {
  DeviceSn: string;
  ProjectId: number | null;
  RegionId: number | null;
  Position: string;
  Address: string;
  UseTime: string;
}
interface DevicePage {
  data: Device[];
  count: number;
  totalPage: number;
  currentPage: number;
  pageSize: number;
}
interface Point {
  Id: number;
  DeviceSn: string;
  PanelId: number | null;
  DataKey: string;
  DataName: string;
  DataType: string;
  Format: string;
  AutoControl: boolean;
}

/** Query parameters as text. */
const queryOf = (params: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );

const sns = (devices: Device[]) => devices.map((d) => d.DeviceSn).sort();

describe.each(databaseKinds)('legacy device calls on %s', (kind) => {
  let t: TestApp;
  let tokens: { admin: string; operator: string; otherAdmin: string; otherAccount: string };
  let sites: BuiltSites;
  let parentRegion: number;
  let childRegion: number;

  /** A legacy call: account and token in the query (GET) or the body, no header. */
  const legacy = async <T>(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    who: { account: string; token: string },
    params: Record<string, unknown> = {},
  ) => {
    const credentials = { account: who.account, token: who.token };
    const res =
      method === 'GET'
        ? await t.call({
            method,
            url: `/api${url}`,
            query: { ...queryOf(params), ...credentials },
            lang: 'en-US',
          })
        : await t.call({ method, url: `/api${url}`, payload: { ...params, ...credentials }, lang: 'en-US' });
    return { status: res.statusCode, body: res.json<Body<T>>() };
  };
  const asAdmin = () => ({ account: ADMIN.account, token: tokens.admin });
  const asOperator = () => ({ account: OPERATOR.account, token: tokens.operator });
  const asStranger = () => ({ account: tokens.otherAccount, token: tokens.otherAdmin });

  beforeAll(async () => {
    t = await createTestApp(kind);
    const users = await t.signInUsers();
    tokens = { admin: users.admin, operator: users.operator, otherAdmin: users.otherAdmin, otherAccount: 'otherboss' };
    const ctx = t.app.ctx;
    const operatorRole = await defaultRole(ctx.db, 1, 'Operator');
    // The operator's role is granted Qingshan; Hekou is the administrator's alone.
    sites = await buildSites(ctx, {
      groupId: 1,
      tree: {
        projects: [
          {
            name: 'Qingshan',
            stations: [{ name: 'Qingshan 1', devices: [{ sn: 'SL0000000101' }, { sn: 'SL0000000102' }] }],
          },
        ],
      },
      roles: [{ roleId: operatorRole }],
    });
    const hekou = await buildSites(ctx, {
      groupId: 1,
      tree: { projects: [{ name: 'Hekou', stations: [{ name: 'Hekou 1', devices: [{ sn: 'SL0000000201' }] }] }] },
    });
    await buildDevice(ctx, { groupId: 1, sn: 'SL0000000900' });
    parentRegion = await buildRegion(ctx.db, { groupId: 1, name: 'Anji' });
    childRegion = await buildRegion(ctx.db, { groupId: 1, name: 'Tianhuangping' });
    await ctx.db.updateTable('regions').set({ parent_id: parentRegion }).where('id', '=', childRegion).execute();
    await ctx.db.updateTable('devices').set({ region_id: parentRegion }).where('device_sn', '=', 'SL0000000101').execute();
    await ctx.db
      .updateTable('devices')
      .set({ region_id: childRegion })
      .where('device_sn', 'in', ['SL0000000102', 'SL0000000201'])
      .execute();
    expect(hekou.id('Hekou')).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await t.close();
  });

  it('pages devices with account and token, as the paged project calls answer', async () => {
    const all = await legacy<DevicePage>('GET', '/Device/MyPageDevice', asAdmin(), { PageNo: 1, PageSize: 3 });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ count: 4, totalPage: 2, currentPage: 1, pageSize: 3 });
    expect(all.body.data.data).toHaveLength(3);
    const second = await legacy<DevicePage>('GET', '/Device/MyPageDevice', asAdmin(), { pageNo: 2, pageSize: 3 });
    expect(second.body.data.data).toHaveLength(1);

    // GetPageDevices: the devices in projects (the unassigned one is not), of one project when named.
    const inProjects = await legacy<DevicePage>('GET', '/Device/GetPageDevices', asAdmin(), { PageSize: 10 });
    expect(sns(inProjects.body.data.data)).toEqual(['SL0000000101', 'SL0000000102', 'SL0000000201']);
    const qingshan = await legacy<DevicePage>('GET', '/Device/GetPageDevices', asAdmin(), {
      ProjectId: sites.id('Qingshan'),
      Search: '0102',
    });
    expect(sns(qingshan.body.data.data)).toEqual(['SL0000000102']);
    expect(qingshan.body.count).toBe(1);

    // The operator's role reaches Qingshan only; another group's administrator reaches none of these.
    const operator = await legacy<DevicePage>('GET', '/Device/MyPageDevice', asOperator());
    expect(sns(operator.body.data.data)).toEqual(['SL0000000101', 'SL0000000102']);
    const stranger = await legacy<DevicePage>('GET', '/Device/MyPageDevice', asStranger());
    expect(stranger.body.data.count).toBe(0);
    expect((await legacy('GET', '/Device/GetPageDevices', asOperator(), { ProjectId: sites.id('Qingshan') + 1000 })).status).toBe(
      404,
    );
  });

  it('refuses a legacy call without a token, or with a token of another account', async () => {
    expect((await t.call({ method: 'GET', url: '/api/Device/MyPageDevice' })).statusCode).toBe(401);
    expect((await legacy('GET', '/Device/MyPageDevice', { account: OPERATOR.account, token: tokens.admin })).status).toBe(401);
    // Only the legacy calls read a token from the query.
    const modern = await t.call({
      method: 'GET',
      url: '/api/1/Device/MyDevice',
      query: { account: ADMIN.account, token: tokens.admin },
    });
    expect(modern.statusCode).toBe(401);
  });

  it('lists the devices of a region and of the regions under it', async () => {
    const parent = await legacy<Device[]>('GET', '/Device/GetRegionDevice', asAdmin(), { RegionId: parentRegion });
    expect(sns(parent.body.data)).toEqual(['SL0000000101', 'SL0000000102', 'SL0000000201']);
    expect(parent.body.count).toBe(3);
    const child = await legacy<Device[]>('GET', '/Device/GetRegionDevice', asAdmin(), { regionId: childRegion });
    expect(sns(child.body.data)).toEqual(['SL0000000102', 'SL0000000201']);
    // The operator sees only what the role reaches in it.
    const operator = await legacy<Device[]>('GET', '/Device/GetRegionDevice', asOperator(), { RegionId: childRegion });
    expect(sns(operator.body.data)).toEqual(['SL0000000102']);
    expect(fieldsOf(await legacy('GET', '/Device/GetRegionDevice', asAdmin()))).toEqual(['RegionId']);
    expect((await legacy('GET', '/Device/GetRegionDevice', asAdmin(), { RegionId: childRegion + 1000 })).status).toBe(404);
    // Another group's region is not found, whoever asks.
    expect((await legacy('GET', '/Device/GetRegionDevice', asStranger(), { RegionId: parentRegion })).status).toBe(404);
  });

  it("sets a device's position and the day it was put into use, checked like any device edit", async () => {
    const moved = await legacy<Device>('PUT', '/Device/UpdateDevicePosition', asAdmin(), {
      DeviceSn: 'SL0000000102',
      Position: '119.68, 30.52',
      Address: 'Tianhuangping pump house',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ Position: '119.68,30.52', Address: 'Tianhuangping pump house' });
    // POST is taken as well; without Address the address stays.
    const again = await legacy<Device>('POST', '/Device/UpdateDevicePosition', asAdmin(), {
      deviceSn: 'SL0000000102',
      Position: '119.7,30.5',
    });
    expect(again.body.data).toMatchObject({ Position: '119.7,30.5', Address: 'Tianhuangping pump house' });
    const bad = await legacy('PUT', '/Device/UpdateDevicePosition', asAdmin(), { DeviceSn: 'SL0000000102', Position: '200,95' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['Position']);
    expect(fieldsOf(await legacy('PUT', '/Device/UpdateDevicePosition', asAdmin(), { DeviceSn: 'SL0000000102' }))).toEqual([
      'Position',
    ]);

    const used = await legacy<Device>('PUT', '/Device/UpdateDeviceUseTime', asAdmin(), {
      DeviceSn: 'SL0000000102',
      UseTime: '2024-05-01',
    });
    expect(used.body.data.UseTime).toBe('2024-05-01');
    const wrongDay = await legacy('POST', '/Device/UpdateDeviceUseTime', asAdmin(), {
      DeviceSn: 'SL0000000102',
      UseTime: '2024-02-30',
    });
    expect(fieldsOf(wrongDay)).toEqual(['UseTime']);
    const listed = await t.json<Device[]>({
      method: 'GET',
      url: '/api/1/Device/AllDevice?deviceSn=SL0000000102',
      token: tokens.admin,
    });
    expect(listed.data[0]).toMatchObject({ Position: '119.7,30.5', UseTime: '2024-05-01' });
    const cleared = await legacy<Device>('PUT', '/Device/UpdateDeviceUseTime', asAdmin(), {
      DeviceSn: 'SL0000000102',
      UseTime: null,
    });
    expect(cleared.body.data.UseTime).toBe('');

    // The operator may view but not manage devices; another group does not find the device.
    expect(
      (await legacy('PUT', '/Device/UpdateDevicePosition', asOperator(), { DeviceSn: 'SL0000000101', Position: '119,30' }))
        .status,
    ).toBe(403);
    expect(
      (await legacy('PUT', '/Device/UpdateDeviceUseTime', asStranger(), { DeviceSn: 'SL0000000101', UseTime: '2024-01-01' }))
        .status,
    ).toBe(404);
    const untouched = await t.json<Device[]>({
      method: 'GET',
      url: '/api/1/Device/AllDevice?deviceSn=SL0000000101',
      token: tokens.admin,
    });
    expect(untouched.data[0]).toMatchObject({ Position: '', UseTime: '' });
  });

  it("keeps a device's basic-data and control points on their panels", async () => {
    const sn = 'SL0000000101';
    const added = await legacy<Point>('POST', '/DeviceBaseDataAdd', asAdmin(), {
      DeviceSn: sn,
      DataKey: 'Inflow',
      DataName: '进水流量 Inflow',
      Unit: 'm3/H',
      DataType: 'readable',
      Format: '2',
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ DeviceSn: sn, DataKey: 'Inflow', DataType: 'readable', Format: '2' });
    // The device had no basic-data panel: one was made, and the point sits on it.
    const panels = await t.json<{ Id: number; typeId: number }[]>({
      method: 'GET',
      url: `/api/GetDevicePanels?deviceSn=${sn}`,
      token: tokens.admin,
    });
    const basic = panels.data.filter((p) => p.typeId === 4);
    expect(basic.map((p) => p.Id)).toEqual([added.body.data.PanelId]);

    const control = await legacy<Point>('POST', '/DeviceControlDataAdd', asAdmin(), {
      deviceSn: sn,
      DataKey: 'Pump1',
      DataName: '1# 提升泵 Lift pump 1',
      DataType: 'boolean',
      Format: '{"0":"Stop","1":"Run"}',
      AutoControl: true,
    });
    expect(control.status).toBe(201);
    expect(control.body.data.AutoControl).toBe(true);
    const second = await legacy<Point>('POST', '/DeviceControlDataAdd', asAdmin(), {
      DeviceSn: sn,
      DataKey: 'Pump2',
      DataName: '2# 提升泵 Lift pump 2',
      DataType: 'boolean',
    });
    expect(second.body.data.PanelId).toBe(control.body.data.PanelId);

    const basics = await legacy<Point[]>('GET', '/GetDeviceBaseData', asAdmin(), { deviceSn: sn });
    expect(basics.body.data.map((p) => p.DataKey)).toEqual(['Inflow']);
    const controls = await legacy<Point[]>('GET', '/GetDeviceControlData', asOperator(), { DeviceSn: sn });
    expect(controls.body.data.map((p) => p.DataKey)).toEqual(['Pump1', 'Pump2']);

    // The data point rules of the library, each naming its field; a key once per device and kind.
    expect(
      fieldsOf(
        await legacy('POST', '/DeviceBaseDataAdd', asAdmin(), {
          DeviceSn: sn,
          DataKey: 'Inflow',
          DataName: 'x',
          DataType: 'readable',
        }),
      ),
    ).toEqual(['DataKey']);
    expect(
      fieldsOf(
        await legacy('POST', '/DeviceBaseDataAdd', asAdmin(), {
          DeviceSn: sn,
          DataKey: 'Level',
          DataName: 'Level',
          DataType: 'readable',
          Format: 'two',
        }),
      ),
    ).toEqual(['Format']);
    expect(
      fieldsOf(await legacy('POST', '/DeviceBaseDataAdd', asAdmin(), { DeviceSn: sn, DataName: 'x', DataType: 'nope' })),
    ).toEqual(expect.arrayContaining(['DataKey', 'DataType']));

    const changed = await legacy<Point>('PUT', '/UpdateDeviceControlData', asAdmin(), {
      Id: second.body.data.Id,
      DataKey: 'Pump2',
      DataName: '2# 提升泵',
      DataType: 'boolean',
    });
    expect(changed.body.data).toMatchObject({ Id: second.body.data.Id, DataName: '2# 提升泵' });
    expect(
      fieldsOf(
        await legacy('PUT', '/UpdateDeviceControlData', asAdmin(), {
          Id: second.body.data.Id,
          DataKey: 'Pump1',
          DataName: 'x',
          DataType: 'boolean',
        }),
      ),
    ).toEqual(['DataKey']);
    // A control point is not a basic-data point.
    expect(
      (
        await legacy('PUT', '/UpdateDeviceBaseData', asAdmin(), {
          Id: second.body.data.Id,
          DataKey: 'Pump2',
          DataName: 'x',
          DataType: 'boolean',
        })
      ).status,
    ).toBe(404);
    expect((await legacy('POST', '/DeleteDeviceBaseData', asAdmin(), { Id: second.body.data.Id })).status).toBe(404);

    // Who may: the operator views but does not change; another group finds nothing.
    expect(
      (
        await legacy('POST', '/DeviceBaseDataAdd', asOperator(), {
          DeviceSn: sn,
          DataKey: 'X',
          DataName: 'X',
          DataType: 'readable',
        })
      ).status,
    ).toBe(403);
    expect((await legacy('POST', '/DeleteDeviceControlData', asOperator(), { Id: second.body.data.Id })).status).toBe(403);
    expect((await legacy('GET', '/GetDeviceControlData', asStranger(), { DeviceSn: sn })).status).toBe(404);
    expect((await legacy('POST', '/DeleteDeviceControlData', asStranger(), { Id: second.body.data.Id })).status).toBe(404);
    expect(
      (
        await legacy('POST', '/DeviceBaseDataAdd', asStranger(), {
          DeviceSn: sn,
          DataKey: 'X',
          DataName: 'X',
          DataType: 'readable',
        })
      ).status,
    ).toBe(404);

    const removed = await legacy('POST', '/DeleteDeviceControlData', asAdmin(), { id: second.body.data.Id });
    expect(removed.status).toBe(200);
    const left = await legacy<Point[]>('GET', '/GetDeviceControlData', asAdmin(), { DeviceSn: sn });
    expect(left.body.data.map((p) => p.DataKey)).toEqual(['Pump1']);
  });
});
