import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createTestApp,
  databaseKinds,
  fieldsOf,
  multipartFile,
  EXE,
  JPEG,
  PNG,
  type Body,
  type CreatedTenant,
  type Errors,
  type TestApp,
} from './harness.ts';
import { verifyDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import type { DeviceRef } from '../src/modules/devices/device-events.ts';
import { buildSites, buildType, defaultRole, type BuiltSites, type SiteTree } from './factories.ts';

interface Device {
  DeviceSn: string;
  DeviceNo: string;
  DeviceName: string;
  TypeId: number | null;
  ProjectId: number | null;
  ProjectName: string | null;
  ProjectType: number | null;
  ParentProjectId: number | null;
  Position: string;
  Online: boolean;
}
interface Project {
  Id: number;
  Name: string;
  DeviceNum: number;
}
interface Page<T> {
  data: T[];
  count: number;
}

// What the devices service announces, recorded by handlers subscribed like the composition root's.
const created: DeviceRef[] = [];
const purged: DeviceRef[] = [];

/** Group 1's sites: two projects, four stations, eight devices; lift pumps of one type. */
function sitesWith(liftPump: number): SiteTree {
  return {
    client: '安吉县水务 Anji Water',
    projects: [
      {
        name: '青山镇 Qingshan Town',
        stations: [
          {
            name: '青山一站 Qingshan No. 1',
            position: '119.6132,30.6147',
            devices: [{ sn: 'SL0000000101', name: '1# 提升泵 Lift pump 1', online: true, typeId: liftPump }],
          },
          {
            name: '青山二站 Qingshan No. 2',
            devices: [{ sn: 'SL0000000203', name: 'PAC 加药泵 PAC dosing pump', online: true }],
          },
        ],
      },
      {
        name: '河口村 Hekou Village',
        stations: [
          {
            name: '河口村站 Hekou',
            position: '119.6652,30.5813',
            devices: [
              { sn: 'SL0000000501', name: '1# 提升泵 Lift pump 1', online: true, typeId: liftPump },
              { sn: 'SL0000000502', name: '2# 提升泵 Lift pump 2', typeId: liftPump },
              { sn: 'SL0000000503', name: '曝气风机 Blower', online: true },
              { sn: 'SL0000000504', name: '出水在线监测仪 Effluent analyser', online: true },
            ],
          },
          {
            name: '上坞站 Shangwu',
            position: '119.6724,30.5871',
            devices: [
              { sn: 'SL0000000601', name: '提升泵 Lift pump', typeId: liftPump },
              { sn: 'SL0000000602', name: 'PAC 加药泵 PAC dosing pump' },
            ],
          },
        ],
      },
    ],
  };
}

describe.each(databaseKinds)('devices on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let otherAdmin: string;
  let other: CreatedTenant;
  let hekou: Project;
  let hekouStation: Project;
  let shangwu: Project;
  let qingshan: Project;
  let uvType: number;
  let dosingType: number;
  let sites: BuiltSites;
  const secretOf = (sn: string) => sites.devices.get(sn)?.secret ?? '';

  beforeAll(async () => {
    t = await createTestApp(kind);
    t.app.ctx.deviceEvents.on('created', 'record', (_trx, device) => {
      created.push(device);
      return Promise.resolve();
    });
    t.app.ctx.deviceEvents.on('purged', 'record', (_trx, device) => {
      purged.push(device);
      return Promise.resolve();
    });
    ({ admin, operator, other, otherAdmin } = await t.signInUsers());
    const db = t.app.ctx.db;
    const liftPump = (await buildType(db, { groupId: 1, name: '提升泵 Lift pump' })).id;
    dosingType = (await buildType(db, { groupId: 1, name: '加药泵 Dosing pump' })).id;
    uvType = (await buildType(db, { groupId: 1, name: '紫外消毒 UV' })).id;
    sites = await buildSites(t.app.ctx, {
      groupId: 1,
      tree: sitesWith(liftPump),
      roles: [{ roleId: await defaultRole(db, 1, 'Operator') }],
    });
    const projects = await t.json<Page<Project>>({ method: 'GET', url: '/api/1/project/myProject', token: admin });
    hekou = projects.data.data.find((p) => p.Name.startsWith('河口村')) ?? hekou;
    qingshan = projects.data.data.find((p) => p.Name.startsWith('青山镇')) ?? qingshan;
    const stations = await t.json<Project[]>({ method: 'GET', url: `/api/1/project/Child/${String(hekou.Id)}`, token: admin });
    hekouStation = stations.data.find((s) => s.Name.startsWith('河口村站')) ?? hekouStation;
    shangwu = stations.data.find((s) => s.Name.startsWith('上坞')) ?? shangwu;
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds a device with its MQTT credential shown once and only its hash kept', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/1/Device',
      token: admin,
      payload: {
        DeviceNo: 'HK-UV1',
        DeviceName: '紫外消毒 UV',
        DeviceDescription: 'UV disinfection',
        TypeId: uvType,
        ProjectId: hekouStation.Id,
        Position: '119.6653,30.5814',
        Address: '河口村',
        AreaId: '330523',
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<Body<{ Device: Device; Credential: { Username: string; Password: string } }>>();
    const { Device: device, Credential: credential } = body.data;
    expect(device.DeviceSn).toMatch(/^SL\d{10}$/);
    expect(device).toMatchObject({
      DeviceNo: 'HK-UV1',
      TypeId: uvType,
      ProjectId: hekouStation.Id,
      ProjectType: 1,
      ParentProjectId: hekou.Id,
      Online: false,
    });
    expect(credential.Username).toBe(device.DeviceSn);
    expect(credential.Password.length).toBeGreaterThanOrEqual(40);
    const row = await t.app.ctx.db
      .selectFrom('devices')
      .select('secret_hash')
      .where('device_sn', '=', device.DeviceSn)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(credential.Password);
    expect(await verifyDeviceSecret(t.app.ctx.db, device.DeviceSn, credential.Password)).toBe(true);
    expect(await verifyDeviceSecret(t.app.ctx.db, device.DeviceSn, 'guess')).toBe(false);
    expect(created).toContainEqual({ groupId: 1, deviceSn: device.DeviceSn, typeId: uvType });
    // The secret is never shown again.
    const read = await t.call({ method: 'GET', url: `/api/1/Device/AllDevice?deviceSn=${device.DeviceSn}`, token: admin });
    expect(read.body).not.toContain(credential.Password);
    // A new secret replaces the old one.
    const reset = await t.json<{ Password: string }>({
      method: 'PUT',
      url: '/api/1/Device/Credential',
      token: admin,
      payload: { DeviceSn: device.DeviceSn },
    });
    expect(await verifyDeviceSecret(t.app.ctx.db, device.DeviceSn, credential.Password)).toBe(false);
    expect(await verifyDeviceSecret(t.app.ctx.db, device.DeviceSn, reset.data.Password)).toBe(true);

    const dup = await t.call({
      method: 'POST',
      url: '/api/1/Device',
      token: admin,
      payload: { DeviceNo: 'HK-UV1', DeviceName: 'again', ProjectId: hekouStation.Id },
    });
    expect(dup.statusCode).toBe(409);
  });

  it('names the bad field of a device', async () => {
    const bad = await t.call({
      method: 'POST',
      url: '/api/1/Device',
      token: admin,
      lang: 'en-US',
      payload: { DeviceName: '', ProjectId: hekouStation.Id, Position: '119.66;30.58', DeviceNo: 'has space' },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad).sort()).toEqual(['DeviceName', 'DeviceNo', 'Position']);
    expect(bad.json<Body<Errors>>().data.errors.find((e) => e.field === 'Position')?.message).toBe(
      'Enter a position as longitude,latitude, e.g. 113.8865,22.609985',
    );
    const onClient = await t.json<Project[]>({ method: 'GET', url: '/api/1/project?ProjectType=-1', token: admin });
    const clientRes = await t.call({
      method: 'POST',
      url: '/api/1/Device',
      token: admin,
      payload: { DeviceName: 'x', ProjectId: onClient.data[0]?.Id },
    });
    expect(clientRes.statusCode).toBe(400);
    expect(fieldsOf(clientRes)).toEqual(['ProjectId']);
    const region = await t.call({
      method: 'POST',
      url: '/api/1/Device',
      token: admin,
      payload: { DeviceName: 'x', ProjectId: hekouStation.Id, RegionId: 9999 },
    });
    expect(fieldsOf(region)).toEqual(['RegionId']);
    const type = await t.call({
      method: 'POST',
      url: '/api/1/Device',
      token: admin,
      payload: { DeviceName: 'x', ProjectId: hekouStation.Id, TypeId: 999999 },
    });
    expect(fieldsOf(type)).toEqual(['TypeId']);
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/1/Device',
          token: operator,
          payload: { DeviceName: 'x', ProjectId: hekouStation.Id },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('lists devices by project, station, serial number, type and state, paged and searched', async () => {
    const ofProject = await t.json<Device[]>({
      method: 'GET',
      url: `/api/1/Device/AllDevice?ProjectId=${String(hekou.Id)}`,
      token: operator,
    });
    expect(ofProject.data).toHaveLength(7);
    const ofStation = await t.json<Device[]>({
      method: 'GET',
      url: `/api/1/Device/AllDevice?ProjectId=${String(shangwu.Id)}`,
      token: operator,
    });
    expect(ofStation.data.map((d) => d.DeviceSn).sort()).toEqual(['SL0000000601', 'SL0000000602']);
    const one = await t.json<Device[]>({ method: 'GET', url: '/api/1/Device/AllDevice?deviceSn=SL0000000503', token: operator });
    expect(one.data).toEqual([
      expect.objectContaining({ DeviceSn: 'SL0000000503', ProjectName: '河口村站 Hekou', ParentProjectId: hekou.Id }),
    ]);
    const paged = await t.json<Device[]>({
      method: 'GET',
      url: `/api/1/Device/Project?ProjectId=${String(hekou.Id)}&PageNo=2&PageSize=5&OrderBy=DeviceSn`,
      token: operator,
    });
    expect(paged.count).toBe(7);
    expect(paged.data).toHaveLength(2);
    const online = await t.json<Device[]>({
      method: 'GET',
      url: `/api/1/Device/MyDevice?ProjectId=${String(hekou.Id)}&Online=1`,
      token: operator,
    });
    expect(online.data.every((d) => d.Online)).toBe(true);
    expect(online.count).toBe(3);
    const typed = await t.json<Device[]>({
      method: 'GET',
      url: `/api/1/Device/MyDevice?TypeId=${String(uvType)}`,
      token: operator,
    });
    expect(typed.data.map((d) => d.DeviceNo)).toEqual(['HK-UV1']);
    const searched = await t.json<Device[]>({
      method: 'GET',
      url: `/api/1/Device/MyDevice?Search=${encodeURIComponent('加药泵')}`,
      token: operator,
    });
    expect(searched.count).toBe(2);
    const badSort = await t.call({ method: 'GET', url: '/api/1/Device/MyDevice?OrderBy=secret_hash', token: operator });
    expect(badSort.statusCode).toBe(400);
  });

  it('edits a device, changes its type, and migrates it with a recorded history', async () => {
    const sn = 'SL0000000602';
    const edited = await t.json<Device>({
      method: 'PUT',
      url: '/api/1/Device',
      token: admin,
      payload: { DeviceSn: sn, DeviceName: '2# PAC 加药泵', Position: '119.6725,30.5872' },
    });
    expect(edited.data).toMatchObject({ DeviceName: '2# PAC 加药泵', Position: '119.6725,30.5872' });
    const typed = await t.json<Device>({
      method: 'PUT',
      url: '/api/1/Device/Type',
      token: admin,
      payload: { DeviceSn: sn, TypeId: dosingType },
    });
    expect(typed.data.TypeId).toBe(dosingType);

    const moved = await t.json<Device>({
      method: 'PUT',
      url: '/api/1/Device/Migration',
      token: admin,
      payload: { DeviceSn: sn, ProjectId: hekouStation.Id },
    });
    expect(moved.data.ProjectId).toBe(hekouStation.Id);
    const again = await t.call({
      method: 'PUT',
      url: '/api/1/Device/Migration',
      token: admin,
      payload: { DeviceSn: sn, ProjectId: hekouStation.Id },
    });
    expect(again.statusCode).toBe(409);
    const unassigned = await t.json<Device>({
      method: 'PUT',
      url: '/api/1/Device/Project',
      token: admin,
      payload: { DeviceSn: sn },
    });
    expect(unassigned.data.ProjectId).toBeNull();
    const noProject = await t.json<Device[]>({ method: 'GET', url: '/api/1/Device/NoProject', token: admin });
    expect(noProject.data.map((d) => d.DeviceSn)).toEqual([sn]);
    // An operator reaches no unassigned device.
    expect((await t.json<Device[]>({ method: 'GET', url: '/api/1/Device/NoProject', token: operator })).data).toEqual([]);
    expect((await t.call({ method: 'GET', url: `/api/1/${sn}/DeviceMigration`, token: operator })).statusCode).toBe(404);
    await t.call({
      method: 'PUT',
      url: '/api/1/Device/Migration',
      token: admin,
      payload: { DeviceSn: sn, ProjectId: shangwu.Id },
    });

    const history = await t.json<{
      DeviceSn: string;
      ListMigration: { FromProjectName: string; ToProjectName: string; UserName: string; ToProjectId: number | null }[];
    }>({
      method: 'GET',
      url: `/api/1/${sn}/DeviceMigration`,
      token: operator,
    });
    expect(history.data.DeviceSn).toBe(sn);
    expect(history.data.ListMigration.map((m) => [m.FromProjectName, m.ToProjectName])).toEqual([
      ['', '上坞站 Shangwu'],
      ['河口村站 Hekou', ''],
      ['上坞站 Shangwu', '河口村站 Hekou'],
    ]);
    expect(history.data.ListMigration[0]?.UserName).toBe('admin');
    const client = (await t.json<Project[]>({ method: 'GET', url: '/api/1/project?ProjectType=-1', token: admin })).data[0];
    const toClient = await t.call({
      method: 'PUT',
      url: '/api/1/Device/Migration',
      token: admin,
      payload: { DeviceSn: sn, ProjectId: client?.Id },
    });
    expect(toClient.statusCode).toBe(400);
  });

  it('says whether the caller may control a device', async () => {
    const mine = await t.json<{ CanControl: boolean; Online: boolean }>({
      method: 'GET',
      url: '/api/api/Device/CheckDeviceControl/SL0000000501',
      token: operator,
    });
    expect(mine.data).toEqual({ DeviceSn: 'SL0000000501', CanControl: true, Online: true });
    expect(
      (await t.call({ method: 'GET', url: '/api/api/Device/CheckDeviceControl/SL9999999999', token: operator })).statusCode,
    ).toBe(404);
  });

  it('keeps a device config, a SIM card and images', async () => {
    const sn = 'SL0000000501';
    const base = `/api/1/${sn}/DeviceConfig`;
    const added = await t.call({
      method: 'POST',
      url: base,
      token: admin,
      payload: { DataName: 'Modbus slave', DataType: 'textbox', DataValue: 3 },
    });
    expect(added.statusCode).toBe(201);
    const config = added.json<Body<{ Id: number; DataValue: string; DeviceSn: string }>>().data;
    expect(config).toMatchObject({ DataValue: '3', DeviceSn: sn });
    await t.call({
      method: 'PUT',
      url: base,
      token: admin,
      payload: { Id: config.Id, DataName: 'Modbus slave', DataType: 'textbox', DataValue: '4' },
    });
    const list = await t.json<{ DataValue: string }[]>({ method: 'GET', url: base, token: operator });
    expect(list.data.map((c) => c.DataValue)).toEqual(['4']);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/1/SL0000000502/DeviceConfig/${String(config.Id)}`, token: admin })).statusCode,
    ).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `${base}/${String(config.Id)}`, token: admin })).statusCode).toBe(200);

    const cardUrl = `/api/1/${sn}/DeviceCard`;
    const empty = await t.json<null>({ method: 'GET', url: cardUrl, token: operator, lang: 'en-US' });
    expect(empty).toMatchObject({
      success: true,
      data: null,
      message: 'SIM data is not available: no SIM provider is configured yet',
    });
    const badCard = await t.call({ method: 'POST', url: cardUrl, token: admin, lang: 'en-US', payload: { ICCID: '8986' } });
    expect(badCard.statusCode).toBe(400);
    expect(badCard.json<Body>().message).toBe('ICCID: An ICCID has 19 or 20 digits');
    const card = await t.json<{ Id: number; ICCID: string }>({
      method: 'POST',
      url: cardUrl,
      token: admin,
      payload: { ICCID: '89860012345678901234' },
    });
    expect(card.data.ICCID).toBe('89860012345678901234');
    expect(
      (await t.call({ method: 'POST', url: cardUrl, token: admin, payload: { ICCID: '8986001234567890123' } })).statusCode,
    ).toBe(409);
    await t.call({ method: 'PUT', url: cardUrl, token: admin, payload: { ICCID: '8986001234567890123' } });
    const read = await t.json<{ ICCID: string; SimConfigured: boolean; Sim: null }>({
      method: 'GET',
      url: cardUrl,
      token: operator,
    });
    expect(read.data).toMatchObject({ ICCID: '8986001234567890123', SimConfigured: false, Sim: null });
    expect((await t.call({ method: 'DELETE', url: `${cardUrl}/${String(card.data.Id)}`, token: admin })).statusCode).toBe(200);

    const images = `/api/device/${sn}/DeviceImage`;
    const folder = path.join(t.dataDir, 'uploads', 'device-images');
    const first = await t.json<{ Id: number; Rank: number; url: string; ImageName: string }>({
      method: 'PUT',
      url: images,
      token: admin,
      ...multipartFile(JPEG, 'pump.jpg', 'image/jpeg'),
    });
    expect(first.data).toMatchObject({ Rank: 0, ImageName: 'pump' });
    const second = await t.json<{ Id: number; Rank: number }>({
      method: 'PUT',
      url: `${images}?ImageName=Panel`,
      token: admin,
      ...multipartFile(PNG, 'x.png'),
    });
    expect(second.data.Rank).toBe(1);
    expect((await t.call({ method: 'GET', url: first.data.url })).headers['content-type']).toBe('image/jpeg');
    const before = await readdir(folder);
    expect(before).toHaveLength(2);
    const renamed = await t.call({ method: 'PUT', url: images, token: admin, ...multipartFile(EXE, 'pump.png', 'image/png') });
    expect(renamed.statusCode).toBe(415);
    const huge = await t.call({
      method: 'PUT',
      url: images,
      token: admin,
      ...multipartFile(Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024)]), 'big.jpg'),
    });
    expect(huge.statusCode).toBe(413);
    expect((await t.call({ method: 'PUT', url: images, token: operator, ...multipartFile(PNG, 'x.png') })).statusCode).toBe(403);
    expect(await readdir(folder)).toEqual(before);
    const listed = await t.json<{ ImageName: string }[]>({ method: 'GET', url: images, token: operator });
    expect(listed.data.map((i) => i.ImageName)).toEqual(['pump', 'Panel']);
    expect((await t.call({ method: 'DELETE', url: `${images}/${String(first.data.Id)}`, token: admin })).statusCode).toBe(200);
    expect(await readdir(folder)).toHaveLength(1);
  });

  it('puts every device and station on one compact map', async () => {
    const res = await t.call({ method: 'GET', url: '/api/DeviceMap/GetDeviceMap', token: admin });
    const map = res.json<
      Body<{
        DeviceFields: string[];
        Devices: (string | number | null)[][];
        StationFields: string[];
        Stations: (string | number | null)[][];
      }>
    >().data;
    expect(map.DeviceFields).toEqual(['DeviceSn', 'DeviceName', 'Lng', 'Lat', 'State', 'ProjectId', 'TypeId']);
    const pump = map.Devices.find((d) => d[0] === 'SL0000000501');
    // A device without a position of its own stands at its station.
    const pumpType = await t.app.ctx.db
      .selectFrom('device_types')
      .select('id')
      .where('group_id', '=', 1)
      .where('type_name', '=', '提升泵 Lift pump')
      .executeTakeFirstOrThrow();
    expect(pump).toEqual(['SL0000000501', '1# 提升泵 Lift pump 1', 119.6652, 30.5813, 1, hekouStation.Id, pumpType.id]);
    const station = map.Stations.find((s) => s[0] === shangwu.Id);
    expect(station?.slice(2, 5)).toEqual([119.6724, 30.5871, 0]);
    expect(map.Stations).toHaveLength(4);
  });

  describe('the recycle bin', () => {
    it('moves a deleted device to the bin, hides it everywhere else and restores it to its project', async () => {
      const sn = 'SL0000000503';
      const deletedFrom = Date.now();
      const deleted = await t.call({ method: 'DELETE', url: `/api/1/Device/${sn}`, token: admin, lang: 'en-US' });
      const deletedBy = Date.now();
      expect(deleted.json<Body>().message).toBe('Moved to the recycle bin');
      expect(
        (await t.json<Device[]>({ method: 'GET', url: `/api/1/Device/AllDevice?deviceSn=${sn}`, token: admin })).data,
      ).toEqual([]);
      expect((await t.json<Device[]>({ method: 'GET', url: `/api/1/Device/MyDevice?Search=${sn}`, token: admin })).count).toBe(0);
      expect((await t.call({ method: 'GET', url: `/api/1/${sn}/DeviceMigration`, token: admin })).statusCode).toBe(404);
      expect(
        (await t.call({ method: 'PUT', url: '/api/1/Device', token: admin, payload: { DeviceSn: sn, DeviceName: 'x' } }))
          .statusCode,
      ).toBe(404);
      const map = await t.json<{ Devices: unknown[][] }>({ method: 'GET', url: '/api/DeviceMap/GetDeviceMap', token: admin });
      expect(map.data.Devices.some((d) => d[0] === sn)).toBe(false);
      expect(await verifyDeviceSecret(t.app.ctx.db, sn, secretOf(sn))).toBe(false);
      const project = await t.json<Project>({
        method: 'GET',
        url: `/api/1/project/info/${String(hekouStation.Id)}`,
        token: admin,
      });
      expect(project.data.DeviceNum).toBe(4);

      const bin = await t.json<
        { DeviceSn: string; DeletedBy: string; DeletedAt: number; ProjectId: number; ProjectExists: boolean }[]
      >({ method: 'GET', url: '/api/Device/RecycleBin', token: admin });
      expect(bin.count).toBe(1);
      expect(bin.data[0]).toMatchObject({ DeviceSn: sn, DeletedBy: 'admin', ProjectId: hekouStation.Id, ProjectExists: true });
      expect(bin.data[0]?.DeletedAt).toBeGreaterThanOrEqual(deletedFrom);
      expect(bin.data[0]?.DeletedAt).toBeLessThanOrEqual(deletedBy);
      // Operators cannot reach the bin.
      expect((await t.call({ method: 'GET', url: '/api/Device/RecycleBin', token: operator })).statusCode).toBe(403);

      const restored = await t.call({ method: 'PUT', url: `/api/Device/RecycleBin/Restore/${sn}`, token: admin, lang: 'en-US' });
      expect(restored.json<Body>()).toMatchObject({ message: 'Restored', data: { ProjectRestored: true } });
      const back = await t.json<Device[]>({ method: 'GET', url: `/api/1/Device/AllDevice?deviceSn=${sn}`, token: operator });
      expect(back.data[0]).toMatchObject({ ProjectId: hekouStation.Id, DeviceName: '曝气风机 Blower' });
      expect(await verifyDeviceSecret(t.app.ctx.db, sn, secretOf(sn))).toBe(true);
      expect((await t.json<unknown[]>({ method: 'GET', url: '/api/Device/RecycleBin', token: admin })).data).toEqual([]);
    });

    it('restores a device whose station is gone as unassigned, and purges only for administrators', async () => {
      const station = await t.json<Project>({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: '临时站 Temporary', ProjectType: 1, ParentId: qingshan.Id },
      });
      const added = await t.json<{ Device: Device }>({
        method: 'POST',
        url: '/api/1/Device',
        token: admin,
        payload: { DeviceName: 'Temp pump', ProjectId: station.data.Id },
      });
      const sn = added.data.Device.DeviceSn;
      await t.call({ method: 'PUT', url: `/api/1/${sn}/DeviceCard`, token: admin, payload: { ICCID: '89860012345678901234' } });
      await t.call({
        method: 'POST',
        url: `/api/1/${sn}/DeviceConfig`,
        token: admin,
        payload: { DataName: 'k', DataValue: 'v' },
      });
      await t.call({ method: 'PUT', url: `/api/device/${sn}/DeviceImage`, token: admin, ...multipartFile(PNG, 'p.png') });

      const refused = await t.call({
        method: 'DELETE',
        url: `/api/1/project/${String(station.data.Id)}`,
        token: admin,
        lang: 'en-US',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json<Body>().message).toContain('0 stations or projects and 1 devices');
      await t.call({ method: 'DELETE', url: `/api/1/Device/${sn}`, token: admin });
      expect(
        (await t.call({ method: 'DELETE', url: `/api/1/project/${String(station.data.Id)}`, token: admin })).statusCode,
      ).toBe(200);

      const bin = await t.json<{ DeviceSn: string; ProjectExists: boolean }[]>({
        method: 'GET',
        url: '/api/Device/RecycleBin',
        token: admin,
      });
      expect(bin.data).toEqual([expect.objectContaining({ DeviceSn: sn, ProjectExists: false })]);
      const restored = await t.call({ method: 'PUT', url: `/api/Device/RecycleBin/Restore/${sn}`, token: admin, lang: 'en-US' });
      expect(restored.json<Body>().message).toBe('Restored; its project no longer exists, so it is unassigned');
      const unassigned = await t.json<Device[]>({ method: 'GET', url: '/api/1/Device/NoProject', token: admin });
      expect(unassigned.data.map((d) => d.DeviceSn)).toContain(sn);
      // Nothing was lost while it was in the bin.
      expect((await t.json<{ ICCID: string }>({ method: 'GET', url: `/api/1/${sn}/DeviceCard`, token: admin })).data.ICCID).toBe(
        '89860012345678901234',
      );
      expect((await t.json<unknown[]>({ method: 'GET', url: `/api/1/${sn}/DeviceConfig`, token: admin })).data).toHaveLength(1);

      await t.call({ method: 'DELETE', url: `/api/1/Device/${sn}`, token: admin });
      // The operator holds device.manage nowhere, and purging is for administrators alone.
      expect((await t.call({ method: 'DELETE', url: `/api/Device/RecycleBin/${sn}`, token: operator })).statusCode).toBe(403);
      const folder = path.join(t.dataDir, 'uploads', 'device-images');
      const filesBefore = (await readdir(folder)).length;
      expect((await t.call({ method: 'DELETE', url: `/api/Device/RecycleBin/${sn}`, token: admin })).statusCode).toBe(200);
      expect(purged).toContainEqual({ groupId: 1, deviceSn: sn, typeId: null });
      expect(await readdir(folder)).toHaveLength(filesBefore - 1);
      expect((await t.json<unknown[]>({ method: 'GET', url: '/api/Device/RecycleBin', token: admin })).data).toEqual([]);
      const left = await t.app.ctx.db.selectFrom('device_cards').select('id').where('device_sn', '=', sn).execute();
      expect(left).toEqual([]);
      expect((await t.call({ method: 'PUT', url: `/api/Device/RecycleBin/Restore/${sn}`, token: admin })).statusCode).toBe(404);
    });
  });

  it("refuses another group's devices and changes nothing", async () => {
    const g = String(other.groupId);
    const sn = 'SL0000000101';
    const attempts = [
      { method: 'GET', url: '/api/1/Device/MyDevice' },
      { method: 'PUT', url: `/api/${g}/Device`, payload: { DeviceSn: sn, DeviceName: 'Hijacked' } },
      { method: 'DELETE', url: `/api/${g}/Device/${sn}` },
      { method: 'PUT', url: `/api/${g}/Device/Migration`, payload: { DeviceSn: sn, ProjectId: hekouStation.Id } },
      { method: 'PUT', url: `/api/${g}/Device/Type`, payload: { DeviceSn: sn, TypeId: 1 } },
      { method: 'PUT', url: `/api/${g}/Device/Project`, payload: { DeviceSn: sn } },
      { method: 'PUT', url: `/api/${g}/Device/Credential`, payload: { DeviceSn: sn } },
      { method: 'GET', url: `/api/${g}/${sn}/DeviceMigration` },
      { method: 'GET', url: `/api/${g}/${sn}/DeviceConfig` },
      { method: 'POST', url: `/api/${g}/${sn}/DeviceConfig`, payload: { DataName: 'x', DataValue: 'y' } },
      { method: 'PUT', url: `/api/${g}/${sn}/DeviceCard`, payload: { ICCID: '89860012345678901234' } },
      { method: 'GET', url: `/api/device/${sn}/DeviceImage` },
      { method: 'GET', url: `/api/1/${sn}/DeviceImage` },
      { method: 'GET', url: `/api/api/Device/CheckDeviceControl/${sn}` },
      { method: 'POST', url: `/api/${g}/Device`, payload: { DeviceName: 'Into theirs', ProjectId: hekouStation.Id } },
      { method: 'PUT', url: `/api/Device/RecycleBin/Restore/${sn}` },
      { method: 'DELETE', url: `/api/Device/RecycleBin/${sn}` },
    ] as const;
    for (const attempt of attempts) {
      const res = await t.call({ ...attempt, token: otherAdmin });
      expect([400, 403, 404], `${attempt.method} ${attempt.url}: ${res.body}`).toContain(res.statusCode);
      expect(res.json<Body>().success).toBe(false);
    }
    // Their lists, asked for our device, hold nothing.
    expect(
      (await t.json<unknown[]>({ method: 'GET', url: `/api/${g}/Device/AllDevice?deviceSn=${sn}`, token: otherAdmin })).data,
    ).toEqual([]);
    expect((await t.json<unknown[]>({ method: 'GET', url: `/api/${g}/Device/MyDevice`, token: otherAdmin })).data).toEqual([]);
    const theirs = await t.json<{ Devices: unknown[]; Stations: unknown[] }>({
      method: 'GET',
      url: '/api/DeviceMap/GetDeviceMap',
      token: otherAdmin,
    });
    expect(theirs.data).toMatchObject({ Devices: [], Stations: [] });
    expect((await t.json<{ Num: number }>({ method: 'GET', url: `/api/${g}/Device/OverView`, token: otherAdmin })).data.Num).toBe(
      0,
    );
    const mine = await t.json<Device[]>({ method: 'GET', url: `/api/1/Device/AllDevice?deviceSn=${sn}`, token: admin });
    const pumpType = await t.app.ctx.db
      .selectFrom('device_types')
      .select('id')
      .where('group_id', '=', 1)
      .where('type_name', '=', '提升泵 Lift pump')
      .executeTakeFirstOrThrow();
    expect(mine.data[0]).toMatchObject({
      DeviceName: '1# 提升泵 Lift pump 1',
      ProjectName: '青山一站 Qingshan No. 1',
      TypeId: pumpType.id,
    });
    expect(await verifyDeviceSecret(t.app.ctx.db, sn, secretOf(sn))).toBe(true);
  });
});
