/**
 * A device's run model ({g}/{sn}/DeviceAccessory, DeviceSystem, DeviceSystemAccessory,
 * DeviceSystemCotrolData, DeviceRunModel): the equipment written by those who manage devices, the
 * run systems by those who control them (the operator), checked against
 * the device's data points (a step switches one of its on/off points for more than 10 s), sent to
 * the device on its cmd topic and rotated by those who control it; refused calls change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandMessage, RunModelConfig } from '@sluice/shared/device-protocol';
import type {
  DeviceAccessoryDto,
  DeviceSystemControlDataDto,
  DeviceSystemDto,
  RunModelDto,
} from '@sluice/shared/run-model.schema';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, type Body, type TestApp, type Users } from './harness.ts';
import { buildDataDefine, buildDevice, buildProject, buildRole, buildType, buildUser, defaultRole } from './factories.ts';

describe.each(databaseKinds)('device run model on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let viewer: string;
  let g: number;
  let sn: string;
  let offlineSn: string;
  const points = new Map<string, number>();
  const published: CommandMessage[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0', MQTT_PORT: '0', HOST: '127.0.0.1' });
    await t.app.live.start();
    t.app.live.broker?.aedes.on('publish', (packet) => {
      if (packet.topic.endsWith('/cmd')) published.push(JSON.parse(packet.payload.toString()) as CommandMessage);
    });
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    g = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow()).group_id;
    const type = await buildType(db, {
      groupId: g,
      points: [
        { key: 'Pump1Run', name: '1# pump run', type: 'boolean', format: '{"0":"Stop","1":"Run"}' },
        { key: 'Pump2Run', name: '2# pump run', type: 'boolean', format: '{"0":"Stop","1":"Run"}' },
        { key: 'Pump1Elapsed', name: '1# pump on for', type: 'readable', unit: 's' },
        { key: 'Level', name: 'Tank level', type: 'readable', unit: 'm' },
      ],
    });
    for (const key of ['Pump1Run', 'Pump2Run', 'Pump1Elapsed', 'Level']) {
      const row = await db
        .selectFrom('data_defines')
        .select('id')
        .where('group_id', '=', g)
        .where('data_key', '=', key)
        .executeTakeFirstOrThrow();
      points.set(key, row.id);
    }
    // A switch of the library that this device's type does not have.
    points.set('Elsewhere', (await buildDataDefine(db, { groupId: g, key: 'BlowerRun', type: 'boolean' })).id);
    const project = await buildProject(db, { groupId: g, roles: [{ roleId: await defaultRole(db, g, 'Operator') }] });
    const ctx = { db, deviceEvents: t.app.ctx.deviceEvents };
    sn = (await buildDevice(ctx, { groupId: g, projectId: project, typeId: type.id, online: true })).sn;
    offlineSn = (await buildDevice(ctx, { groupId: g, projectId: project, typeId: type.id })).sn;
    const looker = await buildRole(db, { groupId: g, operates: ['device.view'] });
    await db.insertInto('role_projects').values({ role_id: looker, project_id: project, operate: 0 }).execute();
    const built = await buildUser(db, { groupId: g, roles: [looker] });
    viewer = await t.login(built.account, built.password);
  });

  afterAll(async () => {
    await t.close();
  });

  const url = (call: string, device = sn) => `/api/${String(g)}/${device}/${call}`;
  const post = (call: string, payload: Record<string, unknown>, token = users.admin, device = sn, lang?: string) =>
    t.call({ method: 'POST', url: url(call, device), token, payload, ...(lang ? { lang } : {}) });
  /** The created row of a 201 answer (its Id and fields). */
  const created = (res: Awaited<ReturnType<typeof post>>) => {
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Body<{ Id: number } & Record<string, unknown>>>().data;
  };

  /** A system of two pumps, one step each; its ids. */
  async function dutyStandby(name: string, token = users.admin) {
    const system = created(await post('DeviceSystem/AddDeviceSystem', { Name: name, RestTime: 0 }, token));
    const one = created(await post('DeviceSystemAccessory', { SystemId: system.Id, Name: '1#' }, token));
    const two = created(await post('DeviceSystemAccessory', { SystemId: system.Id, Name: '2#' }, token));
    const step = (accessory: number, key: string, sequence: number, elapsed?: string) =>
      post(
        'DeviceSystemCotrolData',
        {
          AccessoryId: accessory,
          ControlName: 'Run',
          DataValue: 3600,
          DataDefineId: points.get(key),
          ...(elapsed ? { AssociateDefineId: points.get(elapsed) } : {}),
          SequenceIn: sequence,
        },
        token,
      );
    const first = created(await step(one.Id, 'Pump1Run', 1, 'Pump1Elapsed'));
    const second = created(await step(two.Id, 'Pump2Run', 2));
    return { system, one, two, first, second };
  }

  it('keeps a duty/standby system with its accessories and steps, answers it whole, changes and deletes it', async () => {
    const { system, one, first } = await dutyStandby('Lift pumps', users.operator);
    expect(first).toMatchObject({ SystemId: system.Id, AccessoryId: one.Id, DataValue: 3600, SequenceIn: 1 });
    const model = await t.json<RunModelDto>({ method: 'GET', url: url('DeviceRunModel'), token: users.operator });
    const mine = model.data.Systems.find((s) => s.Id === system.Id);
    expect(mine?.Accessories.map((a) => a.Name)).toEqual(['1#', '2#']);
    // What a step may name: the device's switches and numbers, not the library's other points.
    expect(model.data.Switches.map((p) => p.Key).sort()).toEqual(['Pump1Run', 'Pump2Run']);
    expect(model.data.Numbers.map((p) => p.Key).sort()).toEqual(['Level', 'Pump1Elapsed']);
    expect(model.data.Switches.find((p) => p.Key === 'Pump1Run')?.Id).toBe(points.get('Pump1Run'));
    expect(mine?.Steps.map((s) => [s.Accessory, s.Key, s.RunTime, s.ElapsedKey])).toEqual([
      ['1#', 'Pump1Run', 3600, 'Pump1Elapsed'],
      ['2#', 'Pump2Run', 3600, null],
    ]);

    const changed = await t.call({
      method: 'PUT',
      url: url('DeviceSystemCotrolData'),
      token: users.admin,
      payload: { Id: first.Id, DataValue: 1800 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const rest = await t.call({
      method: 'PUT',
      url: url('DeviceSystem/UpdateDeviceSystem'),
      token: users.admin,
      payload: { Id: system.Id, RestTime: 60 },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    const list = await t.json<DeviceSystemControlDataDto[]>({
      method: 'GET',
      url: `${url('DeviceSystemCotrolData')}?SystemId=${String(system.Id)}`,
      token: users.admin,
    });
    expect(list.data.map((s) => s.DataValue)).toEqual([1800, 3600]);
    expect(
      (
        await t.json<DeviceSystemDto[]>({ method: 'GET', url: url('DeviceSystem/GetDeviceSystemList'), token: users.admin })
      ).data.find((s) => s.Id === system.Id)?.RestTime,
    ).toBe(60);

    // Deleting the system takes its accessories and steps along.
    const removed = await t.call({
      method: 'DELETE',
      url: url(`DeviceSystem/RemoveDeviceSystem/${String(system.Id)}`),
      token: users.admin,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const after = await t.json<RunModelDto>({ method: 'GET', url: url('DeviceRunModel'), token: users.admin });
    expect(after.data.Systems.find((s) => s.Id === system.Id)).toBeUndefined();
    const steps = await t.json<DeviceSystemControlDataDto[]>({
      method: 'GET',
      url: url('DeviceSystemCotrolData'),
      token: users.admin,
    });
    expect(steps.data.filter((s) => s.SystemId === system.Id)).toEqual([]);
  });

  it('keeps the device’s equipment (DeviceAccessoryAdd, SaveDeviceAccessory, RemoveDeviceAccessory)', async () => {
    const pump = created(await post('DeviceAccessory/DeviceAccessoryAdd', { Name: '1#提升泵', ICON: 'pump' }));
    const saved = await t.call({
      method: 'PUT',
      url: url('DeviceAccessory/SaveDeviceAccessory'),
      token: users.admin,
      payload: { Id: pump.Id, Name: '1#提升泵（新）' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = await t.json<DeviceAccessoryDto[]>({ method: 'GET', url: url('DeviceAccessory'), token: users.operator });
    expect(list.data).toEqual([{ Id: pump.Id, DeviceSn: sn, Name: '1#提升泵（新）', ICON: 'pump' }]);
    expect((await post('DeviceAccessory/RemoveDeviceAccessory', { Id: pump.Id })).statusCode).toBe(200);
    expect((await t.json<DeviceAccessoryDto[]>({ method: 'GET', url: url('DeviceAccessory'), token: users.admin })).data).toEqual(
      [],
    );
  });

  it('refuses steps that are not the device’s switches or not above 10 s, naming the field in both languages', async () => {
    const system = created(await post('DeviceSystem/AddDeviceSystem', { Name: 'Checks' }));
    const accessory = created(await post('DeviceSystemAccessory', { SystemId: system.Id, Name: '1#' }));
    const step = { AccessoryId: accessory.Id, ControlName: 'Run', DataValue: 600, DataDefineId: points.get('Pump1Run') };
    const refused = async (payload: Record<string, unknown>, field: string, en: string, zh: string) => {
      const res = await post('DeviceSystemCotrolData', { ...step, ...payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(fieldsOf(res)).toEqual([field]);
      expect(res.json<{ message: string }>().message).toContain(en);
      const chinese = await post('DeviceSystemCotrolData', { ...step, ...payload }, users.admin, sn, 'zh-CN');
      expect(chinese.json<{ message: string }>().message).toContain(zh);
    };
    await refused({ DataValue: 10 }, 'DataValue', 'cannot be less than 10 seconds', '10');
    await refused({ DataValue: 'soon' }, 'DataValue', 'Please enter a number', '请输入数字');
    await refused({ DataDefineId: points.get('Level') }, 'DataDefineId', 'is not a switch of this device', '不是本设备的开关量');
    await refused(
      { DataDefineId: points.get('Elsewhere') },
      'DataDefineId',
      'is not a switch of this device',
      '不是本设备的开关量',
    );
    await refused(
      { AssociateDefineId: points.get('Pump2Run') },
      'AssociateDefineId',
      'is not a number this device reports',
      '不是本设备上报的数值',
    );
    await refused({ AccessoryId: 999999 }, 'AccessoryId', 'No such AccessoryId', '不存在的');
    const badRest = await post('DeviceSystem/AddDeviceSystem', { Name: 'Short rest', RestTime: 5 });
    expect(badRest.statusCode).toBe(400);
    expect(fieldsOf(badRest)).toEqual(['RestTime']);
    const noName = await post('DeviceSystem/AddDeviceSystem', { Name: '' });
    expect(fieldsOf(noName)).toEqual(['Name']);
    // An accessory of another device's system.
    const elsewhere = created(await post('DeviceSystem/AddDeviceSystem', { Name: 'Other' }, users.admin, offlineSn));
    const foreign = await post('DeviceSystemAccessory', { SystemId: elsewhere.Id, Name: '1#' });
    expect(foreign.statusCode).toBe(400);
    expect(fieldsOf(foreign)).toEqual(['SystemId']);
    // A change is checked too.
    const good = created(await post('DeviceSystemCotrolData', step));
    const badChange = await t.call({
      method: 'PUT',
      url: url('DeviceSystemCotrolData'),
      token: users.admin,
      payload: { Id: good.Id, DataDefineId: points.get('Level') },
    });
    expect(fieldsOf(badChange)).toEqual(['DataDefineId']);
    const kept = await t.json<DeviceSystemControlDataDto[]>({
      method: 'GET',
      url: `${url('DeviceSystemCotrolData')}?SystemId=${String(system.Id)}`,
      token: users.admin,
    });
    expect(kept.data.map((s) => [s.DataDefineId, s.DataValue])).toEqual([[points.get('Pump1Run'), 600]]);
  });

  it('refuses callers who may not write, reach or control the device', async () => {
    const system = { Name: 'Not theirs' };
    expect((await post('DeviceSystem/AddDeviceSystem', system, viewer)).statusCode).toBe(403);
    expect((await post('DeviceAccessory/DeviceAccessoryAdd', system, users.operator)).statusCode).toBe(403);
    expect((await post('DeviceSystem/AddDeviceSystem', system, users.otherAdmin)).statusCode).toBe(403);
    expect((await post('DeviceSystem/AddDeviceSystem', system, users.admin, 'NOSUCHDEVICE')).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: url('DeviceRunModel') })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: url('DeviceRunModel'), token: users.otherAdmin })).statusCode).toBe(403);
    const { system: mine } = await dutyStandby('Refusals');
    expect((await post('DeviceRunModel/Rotate', { SystemId: mine.Id }, viewer)).statusCode).toBe(403);
    expect((await post('DeviceRunModel/Send', {}, viewer)).statusCode).toBe(403);
    const offline = await post('DeviceRunModel/Send', {}, users.admin, offlineSn);
    expect(offline.statusCode).toBe(409);
    const unknown = await post('DeviceRunModel/Rotate', { SystemId: 999999 });
    expect(fieldsOf(unknown)).toEqual(['SystemId']);
    const names = (await t.json<RunModelDto>({ method: 'GET', url: url('DeviceRunModel'), token: users.admin })).data.Systems.map(
      (s) => s.Name,
    );
    expect(names).not.toContain('Not theirs');
  });

  it('sends the run model and a rotation on the device’s cmd topic, logged like commands', async () => {
    const { system } = await dutyStandby('Sent');
    published.length = 0;
    const sent = await post('DeviceRunModel/Send', {}, users.operator);
    expect(sent.statusCode, sent.body).toBe(200);
    const rotated = await post('DeviceRunModel/Rotate', { SystemId: system.Id }, users.operator);
    expect(rotated.statusCode, rotated.body).toBe(200);
    await expect.poll(() => published.length).toBe(2);
    const [config, rotate] = published;
    expect(config?.Key).toBe('$RunModel');
    const systems = (config?.Value as RunModelConfig).Systems;
    expect(systems.find((s) => s.Id === system.Id)).toEqual({
      Id: system.Id,
      Name: 'Sent',
      RestTime: 0,
      Steps: [
        { Accessory: '1#', Key: 'Pump1Run', RunTime: 3600, ElapsedKey: 'Pump1Elapsed' },
        { Accessory: '2#', Key: 'Pump2Run', RunTime: 3600 },
      ],
    });
    expect(rotate).toMatchObject({ Key: '$Rotate', Value: system.Id });
    const log = await t.json<{ Key: string; KeyName: string; State: number }[]>({
      method: 'GET',
      url: `/api/${String(g)}/${sn}/DeviceLog`,
      token: users.admin,
    });
    expect(log.data.slice(0, 2).map((r) => [r.Key, r.KeyName])).toEqual([
      ['$Rotate', 'Sent'],
      ['$RunModel', ''],
    ]);
  });
});
