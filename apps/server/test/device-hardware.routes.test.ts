/**
 * A device's own hardware rows ({g}/{sn}/DeviceHardware): the Modbus rules and read frames of a
 * type's rows, the data point from the group's library, read by those who see the device and
 * written by those who manage devices; refused calls change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceHardwareDto } from '@sluice/shared/device-type.schema';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, type Body, type TestApp, type Users } from './harness.ts';
import { buildDataDefine, buildDevice, buildProject, defaultRole } from './factories.ts';

describe.each(databaseKinds)('device hardware rows on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let g: number;
  let sn: string;
  let level: number;
  let otherPoint: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    g = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow()).group_id;
    level = (await buildDataDefine(db, { groupId: g, key: 'TankLevel', type: 'readable', unit: 'm' })).id;
    otherPoint = (await buildDataDefine(db, { groupId: users.other.groupId, key: 'Elsewhere', type: 'readable' })).id;
    const project = await buildProject(db, { groupId: g, roles: [{ roleId: await defaultRole(db, g, 'Operator') }] });
    sn = (await buildDevice({ db, deviceEvents: t.app.ctx.deviceEvents }, { groupId: g, projectId: project })).sn;
  });

  afterAll(async () => {
    await t.close();
  });

  const url = (device = sn, group = g) => `/api/${String(group)}/${device}/DeviceHardware`;
  const row = {
    DataDefineId: 0,
    No: 'AI03',
    Sn: 1,
    ShowKey: 'TankLevel',
    KeyType: 'float32',
    ModbusSlave: 1,
    RegAd: 4,
    CMD: 3,
    Lens: 2,
  };

  it('adds, lists with its read frame, changes and deletes a row', async () => {
    const created = await t.call({ method: 'POST', url: url(), token: users.admin, payload: { ...row, DataDefineId: level } });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const id = created.json<Body<DeviceHardwareDto>>().data.Id;
    const list = await t.json<DeviceHardwareDto[]>({ method: 'GET', url: url(), token: users.operator });
    expect(list.data).toEqual([
      expect.objectContaining({
        Id: id,
        DeviceSn: sn,
        No: 'AI03',
        RegAd: 4,
        Lens: 2,
        ReadFrame: '01 03 00 04 00 02 85 CA',
        Crc: '85CA',
      }),
    ]);
    const changed = await t.call({
      method: 'PUT',
      url: url(),
      token: users.admin,
      payload: { ...row, Id: id, DataDefineId: level, RegAd: 6 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await t.json<DeviceHardwareDto[]>({ method: 'GET', url: url(), token: users.admin })).data[0]?.RegAd).toBe(6);
    expect((await t.call({ method: 'DELETE', url: `${url()}/${String(id)}`, token: users.admin })).statusCode).toBe(200);
    expect((await t.json<DeviceHardwareDto[]>({ method: 'GET', url: url(), token: users.admin })).data).toEqual([]);
  });

  it('refuses rows against the Modbus rules or another group’s data point, and callers who may not write', async () => {
    const post = (payload: Record<string, unknown>, token = users.admin, target = url()) =>
      t.call({ method: 'POST', url: target, token, payload });
    const tooLong = await post({ ...row, DataDefineId: level, Lens: 200 });
    expect(tooLong.statusCode).toBe(400);
    expect(fieldsOf(tooLong)).toEqual(['Lens']);
    const badSlave = await post({ ...row, DataDefineId: level, ModbusSlave: 300 });
    expect(badSlave.statusCode).toBe(400);
    expect(fieldsOf(badSlave)).toEqual(['ModbusSlave']);
    const foreign = await post({ ...row, DataDefineId: otherPoint });
    expect(foreign.statusCode).toBe(400);
    expect(fieldsOf(foreign)).toEqual(['DataDefineId']);
    // The operator sees the device but does not manage devices.
    expect((await post({ ...row, DataDefineId: level }, users.operator)).statusCode).toBe(403);
    expect((await post({ ...row, DataDefineId: level }, users.otherAdmin)).statusCode).toBe(403);
    expect((await post({ ...row, DataDefineId: level }, users.admin, url('NOSUCHDEVICE'))).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: url() })).statusCode).toBe(401);
    expect((await t.json<DeviceHardwareDto[]>({ method: 'GET', url: url(), token: users.admin })).data).toEqual([]);
  });
});
