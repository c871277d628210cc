import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATION_KEYS } from '@sluice/shared/station-keys';
import { createTestApp, databaseKinds, fieldsOf, type TestApp } from './harness.ts';
import { client, type Client } from './config-api.ts';
import { buildDataDefine } from './factories.ts';

interface Template {
  Id: number;
  TypeId: number;
  TempName: string;
  IsStandard: boolean;
}
interface Full extends Template {
  Profiles: { Id: number; DataKey: string; PanelId: number | null }[];
  Panels: { Id: number; PanelName: string; PanelTypeId: number }[];
  Args: { Id: number }[];
  Accessories: { Id: number }[];
  ControlData: { Id: number; ControlName: string; SequenceIn: number }[];
  Configs: { Id: number }[];
}
interface DeviceDefine {
  Id: number;
  DeviceSn: string;
  PanelId: number | null;
  DataKey: string;
  DataType: string;
  Format: string;
}
interface Panel {
  Id: number;
  PanelName: string;
  typeId: number;
  deviceSn: string;
}

describe.each(databaseKinds)('templates and device data on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let operator: Client;
  let stranger: Client;
  let typeId: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const users = await t.signInUsers();
    admin = client(t, users.admin);
    operator = client(t, users.operator);
    stranger = client(t, users.otherAdmin);
    typeId = (await admin.post<{ Id: number }>('/Type', { TypeName: 'Wetland station' })).body.data.Id;
    // The library's baud rate, which the template's configuration refers to.
    await buildDataDefine(t.app.ctx.db, {
      groupId: 1,
      key: STATION_KEYS.baudRate,
      name: 'Baud rate',
      type: 'select',
      format: '{"1200":"1200","9600":"9600"}',
      defaultValue: '9600',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('builds a template from its parts, with one standard template per type', async () => {
    const first = await admin.post<Template>('/TypeTemplateAdd', { TypeId: typeId, TempName: 'Basic', IsStandard: true });
    expect(first.status).toBe(201);
    const second = await admin.post<Template>('/TypeTemplateAdd', { TypeId: typeId, TempName: 'Full', IsStandard: 1 });
    expect(second.body.data.IsStandard).toBe(true);
    const page = await admin.get<Template[]>(
      `/GetDeviceTypeTemplatePage?TypeId=${String(typeId)}&sortData=TempName&sortType=desc&pageNo=1&pageSize=10`,
    );
    expect(page.body.data.map((x) => [x.TempName, x.IsStandard])).toEqual([
      ['Full', true],
      ['Basic', false],
    ]);
    const standardOnly = await admin.get<Template[]>(
      `/GetDeviceTypeTemplatePage?TypeId=${String(typeId)}&IsStandard=1&TempName=ul`,
    );
    expect(standardOnly.body.data.map((x) => x.TempName)).toEqual(['Full']);
    expect(fieldsOf(await admin.post('/TypeTemplateAdd', { TypeId: 999999, TempName: 'x' }))).toEqual(['TypeId']);
    const renamed = await admin.put<Template>('/TypeTemplateModify', {
      Id: first.body.data.Id,
      TypeId: typeId,
      TempName: 'Basic v2',
      IsStandard: false,
    });
    expect(renamed.body.data.TempName).toBe('Basic v2');
    expect((await admin.post('/DeviceTypeTemplateRemove', { Id: first.body.data.Id })).status).toBe(200);

    const tempId = second.body.data.Id;
    const panel = await admin.post<{ Id: number }>('/TypeTemplatePanel/Add', {
      TempId: tempId,
      PanelTypeId: 2,
      PanelName: 'Quality',
      Sn: 1,
    });
    expect(panel.status).toBe(201);
    const status = await admin.post<{ Id: number }>('/TypeTemplatePanel/Add', {
      TempId: tempId,
      PanelTypeId: 4,
      PanelName: 'Status',
      Sn: 2,
    });
    expect(fieldsOf(await admin.post('/TypeTemplatePanel/Add', { TempId: tempId, PanelTypeId: 42, PanelName: 'x' }))).toEqual([
      'PanelTypeId',
    ]);
    const profile = await admin.post<{ Id: number; Format: string; AutoControl: boolean }>('/AddTemplateProfile', {
      TempId: tempId,
      PanelId: panel.body.data.Id,
      DataType: 'readable',
      DataKey: STATION_KEYS.codOut,
      DataName: 'Effluent COD',
      Unit: 'mg/L',
      Format: '1',
    });
    expect(profile.status).toBe(201);
    expect(profile.body.data.AutoControl).toBe(false);
    await admin.post('/AddTemplateProfile', {
      TempId: tempId,
      PanelId: status.body.data.Id,
      DataType: 'enum',
      DataKey: STATION_KEYS.controlMode,
      DataName: 'Mode',
      DefaultValue: '1',
    });
    expect(
      fieldsOf(
        await admin.post('/AddTemplateProfile', {
          TempId: tempId,
          DataType: 'boolean',
          DataKey: 'Switch',
          DataName: 'x',
          DefaultValue: '3',
        }),
      ),
    ).toEqual(['DefaultValue']);
    const modified = await admin.put<{ DataName: string }>('/ModifyTemplateProfile', {
      Id: profile.body.data.Id,
      TempId: tempId,
      PanelId: panel.body.data.Id,
      DataType: 'readable',
      DataKey: STATION_KEYS.codOut,
      DataName: 'COD out',
    });
    expect(modified.body.data.DataName).toBe('COD out');
    await admin.post('/TypeTemplateArgs/Add', {
      TempId: tempId,
      DataName: 'Report interval',
      DataType: 'textbox',
      DataValue: '60',
    });
    const blower = await admin.post<{ Id: number }>('/TypeTemplateAccessory/Add', {
      TempId: tempId,
      Name: 'Blower',
      ICON: 'blower',
    });
    const on = await admin.post<{ Id: number }>('/TypeTemplateControlData/Add', {
      TempId: tempId,
      ControlName: 'Blower on',
      DataValue: '1',
      DataDefineKey: STATION_KEYS.blower1Run,
      AssociateKey: STATION_KEYS.blowerOnTime,
      SequenceIn: 1,
      AccessoryId: blower.body.data.Id,
    });
    const off = await admin.post<{ Id: number }>('/TypeTemplateControlData/Add', {
      TempId: tempId,
      ControlName: 'Blower off',
      DataValue: '0',
      DataDefineKey: STATION_KEYS.blower1Run,
      AssociateKey: STATION_KEYS.blowerOffTime,
      SequenceIn: 2,
      AccessoryId: blower.body.data.Id,
    });
    expect(on.status).toBe(201);
    const seq = await admin.put('/TypeTemplateControlData/UpdateTemplateControlSeqIn', {
      Items: [
        { Id: on.body.data.Id, SequenceIn: 2 },
        { Id: off.body.data.Id, SequenceIn: 1 },
      ],
    });
    expect(seq.status).toBe(200);
    await admin.post('/TypeTemplateConfigAdd', {
      TempId: tempId,
      Category: 'Comm',
      DefineKey: STATION_KEYS.baudRate,
      Name: 'Baud rate',
    });

    // A part cannot refer to a panel or accessory of another template.
    const otherTemp = (await admin.post<Template>('/TypeTemplateAdd', { TypeId: typeId, TempName: 'Other' })).body.data.Id;
    const foreign = await admin.post('/AddTemplateProfile', {
      TempId: otherTemp,
      PanelId: panel.body.data.Id,
      DataType: 'string',
      DataKey: 'Note',
      DataName: 'Note',
    });
    expect(fieldsOf(foreign)).toEqual(['PanelId']);

    // Another group reaches none of it; a normal user changes none of it.
    const strangerAttempts = [
      await stranger.get(`/GetDeviceTypeTemplate?Id=${String(tempId)}`),
      await stranger.put('/TypeTemplateModify', { Id: tempId, TypeId: typeId, TempName: 'Hijacked' }),
      await stranger.post('/DeviceTypeTemplateRemove', { Id: tempId }),
      await stranger.post('/TypeTemplatePanel/Remove', { Id: panel.body.data.Id }),
      await stranger.put('/ModifyTemplateProfile', {
        Id: profile.body.data.Id,
        TempId: tempId,
        DataType: 'string',
        DataKey: 'X',
        DataName: 'x',
      }),
      await stranger.post('/TypeTemplateControlData/Remove', { Id: on.body.data.Id }),
      await stranger.put('/TypeTemplateControlData/UpdateTemplateControlSeqIn', {
        Items: [{ Id: on.body.data.Id, SequenceIn: 9 }],
      }),
    ];
    for (const reply of strangerAttempts) expect(reply.status).toBe(404);
    expect((await operator.post('/TypeTemplatePanel/Add', { TempId: tempId, PanelTypeId: 2, PanelName: 'x' })).status).toBe(403);
    expect((await operator.post('/DeviceTypeTemplateRemove', { Id: tempId })).status).toBe(403);

    const full = await operator.get<Full>(`/GetDeviceTypeTemplate?Id=${String(tempId)}`);
    expect(full.status).toBe(200);
    expect(full.body.data.Panels.map((p) => p.PanelName)).toEqual(['Quality', 'Status']);
    expect(full.body.data.Profiles.map((p) => p.DataKey)).toEqual([STATION_KEYS.codOut, STATION_KEYS.controlMode]);
    expect(full.body.data.ControlData.map((c) => c.ControlName)).toEqual(['Blower off', 'Blower on']);
    expect(full.body.data.Args).toHaveLength(1);
    expect(full.body.data.Configs).toHaveLength(1);
  });

  it('starts a new device of the type from its standard template', async () => {
    const device = await admin.post<{ Device: { DeviceSn: string } }>('/1/Device', { DeviceName: 'Wetland PLC', TypeId: typeId });
    expect(device.status).toBe(201);
    const sn = device.body.data.Device.DeviceSn;
    const panels = await admin.get<Panel[]>(`/GetDevicePanels?deviceSn=${sn}`);
    expect(panels.body.data.map((p) => [p.PanelName, p.typeId, p.deviceSn])).toEqual([
      ['Quality', 2, sn],
      ['Status', 4, sn],
    ]);
    const defines = await admin.get<DeviceDefine[]>(`/GetDeviceDataDefine?deviceSn=${sn}`);
    expect(defines.body.data.map((d) => d.DataKey)).toEqual([STATION_KEYS.codOut, STATION_KEYS.controlMode]);
    expect(defines.body.data[0]?.PanelId).toBe(panels.body.data[0]?.Id);
    expect(defines.body.data[1]).toMatchObject({ DataType: 'enum', Format: '{"0":"low","1":"mid","2":"high"}' });
    const configs = await t.app.ctx.db
      .selectFrom('device_configs')
      .select(['data_name', 'data_type', 'data_value'])
      .where('device_sn', '=', sn)
      .orderBy('id')
      .execute();
    expect(configs).toEqual([
      { data_name: 'Report interval', data_type: 'textbox', data_value: '60' },
      { data_name: 'Baud rate', data_type: 'select', data_value: '9600' },
    ]);
    // Purged from the recycle bin, the device's own data points and panels go with it.
    expect((await admin.del(`/1/Device/${sn}`)).status).toBe(200);
    expect((await admin.del(`/Device/RecycleBin/${sn}`)).status).toBe(200);
    const left = await t.app.ctx.db.selectFrom('device_data_defines').select('id').where('device_sn', '=', sn).execute();
    expect(left).toEqual([]);
    expect(await t.app.ctx.db.selectFrom('device_panels').select('id').where('device_sn', '=', sn).execute()).toEqual([]);

    // A device of a type without a standard template starts empty.
    const bare = (await admin.post<{ Id: number }>('/Type', { TypeName: 'Bare type' })).body.data.Id;
    const plain = await admin.post<{ Device: { DeviceSn: string } }>('/1/Device', { DeviceName: 'Plain', TypeId: bare });
    expect((await admin.get<unknown[]>(`/GetDevicePanels?deviceSn=${plain.body.data.Device.DeviceSn}`)).body.data).toEqual([]);
  });

  it("edits a device's own data points and panels, only for devices the caller reaches", async () => {
    const sn = (await admin.post<{ Device: { DeviceSn: string } }>('/1/Device', { DeviceName: 'Edit me', TypeId: typeId })).body
      .data.Device.DeviceSn;
    const panel = await admin.post<Panel>('/AddPanel', { deviceSn: sn, PanelName: 'Energy', typeId: 4 });
    expect(panel.status).toBe(201);
    expect(panel.body.data).toMatchObject({ PanelName: 'Energy', typeId: 4, deviceSn: sn });
    const added = await admin.post<DeviceDefine>('/DeviceDataDefineAdd', {
      DeviceSn: sn,
      PanelId: panel.body.data.Id,
      DataKey: STATION_KEYS.energy,
      DataName: 'Energy',
      DataType: 'readable',
      Unit: 'kWh',
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ DeviceSn: sn, DataKey: STATION_KEYS.energy });
    const bad = await admin.post('/DeviceDataDefineAdd', {
      DeviceSn: sn,
      DataKey: 'X',
      DataName: 'x',
      DataType: 'boolean',
      DefaultValue: '9',
    });
    expect(fieldsOf(bad)).toEqual(['DefaultValue']);
    const changed = await admin.put<DeviceDefine & { DataName: string }>('/UpdateDeviceDataDefine', {
      Id: added.body.data.Id,
      DataKey: STATION_KEYS.energy,
      DataName: 'Energy used',
      DataType: 'readable',
    });
    expect(changed.body.data.DataName).toBe('Energy used');
    const onPanel = await admin.get<DeviceDefine[]>(`/GetDeviceDataDefine?deviceSn=${sn}&PanelId=${String(panel.body.data.Id)}`);
    expect(onPanel.body.data.map((d) => d.DataKey)).toEqual([STATION_KEYS.energy]);
    const renamed = await admin.put<Panel>('/UpdateDevicePanel', { Id: panel.body.data.Id, PanelName: 'Power', typeId: 4 });
    expect(renamed.body.data.PanelName).toBe('Power');
    const types = await operator.get<{ Id: number; Code: string; Name: string }[]>('/DevicePanelType/Get');
    expect(types.body.data.find((p) => p.Id === 7)).toMatchObject({ Code: 'deviceControlData', Name: 'Control' });

    // Another group, and a normal user, may not.
    const attempts = [
      await stranger.get(`/GetDeviceDataDefine?deviceSn=${sn}`),
      await stranger.post('/DeviceDataDefineAdd', { DeviceSn: sn, DataKey: 'X', DataName: 'x', DataType: 'string' }),
      await stranger.put('/UpdateDeviceDataDefine', { Id: added.body.data.Id, DataKey: 'X', DataName: 'x', DataType: 'string' }),
      await stranger.post('/DeleteDeviceDataDefine', { Id: added.body.data.Id }),
      await stranger.get(`/GetDevicePanels?deviceSn=${sn}`),
      await stranger.post('/AddPanel', { deviceSn: sn, PanelName: 'x', typeId: 2 }),
      await stranger.post('/DeleteDevicePanel', { Id: panel.body.data.Id }),
    ];
    for (const reply of attempts) expect(reply.status).toBe(404);
    expect((await operator.post('/AddPanel', { deviceSn: sn, PanelName: 'x', typeId: 2 })).status).toBe(403);
    expect((await stranger.get(`/GetDeviceTypeTemplatePage?TypeId=${String(typeId)}`)).body.data).toEqual([]);
    expect((await stranger.post('/TypeTemplateAdd', { TypeId: typeId, TempName: 'x' })).status).toBe(400);

    const spare = await admin.post<Panel>('/AddPanel', { deviceSn: sn, PanelName: 'Spare', typeId: 9 });
    expect((await stranger.post('/DeletePanel', { Id: spare.body.data.Id })).status).toBe(404);
    expect((await admin.post('/DeletePanel', { Id: spare.body.data.Id })).status).toBe(200);
    expect((await admin.post('/DeleteDevicePanel', { Id: panel.body.data.Id })).status).toBe(200);
    const orphan = await admin.get<DeviceDefine[]>(`/GetDeviceDataDefine?deviceSn=${sn}`);
    expect(orphan.body.data.find((d) => d.Id === added.body.data.Id)?.PanelId).toBeNull();
    expect((await admin.post('/DeleteDeviceDataDefine', { Id: added.body.data.Id })).status).toBe(200);
  });

  it("re-applies the new type's standard template when a device's type changes, keeping what a user added", async () => {
    const sn = (await admin.post<{ Device: { DeviceSn: string } }>('/1/Device', { DeviceName: 'Changes type', TypeId: typeId }))
      .body.data.Device.DeviceSn;
    const panelsOf = async () => (await admin.get<Panel[]>(`/GetDevicePanels?deviceSn=${sn}`)).body.data;
    const definesOf = async () => (await admin.get<DeviceDefine[]>(`/GetDeviceDataDefine?deviceSn=${sn}`)).body.data;
    const configsOf = async () =>
      (await admin.get<{ DataName: string; DataValue: string }[]>(`/1/${sn}/DeviceConfig`)).body.data
        .map((c) => [c.DataName, c.DataValue])
        .sort();
    const quality = (await panelsOf()).find((p) => p.PanelName === 'Quality');
    // What a user adds by hand: a panel, data points on it and on the type's panel, a config.
    const mine = (await admin.post<Panel>('/AddPanel', { deviceSn: sn, PanelName: 'Mine', typeId: 2 })).body.data;
    await admin.post('/DeviceDataDefineAdd', {
      DeviceSn: sn,
      PanelId: mine.Id,
      DataKey: STATION_KEYS.energy,
      DataName: 'Energy',
      DataType: 'readable',
    });
    await admin.post('/DeviceDataDefineAdd', {
      DeviceSn: sn,
      PanelId: quality?.Id,
      DataKey: 'HandNote',
      DataName: 'Note',
      DataType: 'string',
    });
    expect((await admin.post(`/1/${sn}/DeviceConfig`, { DataName: 'Site note', DataValue: 'by the gate' })).status).toBe(201);

    // The new type's standard template: a panel of the same name as the user's, a data point the
    // user has by hand (the user's wins), and an arg of the same name as the old type's.
    const pumpType = (await admin.post<{ Id: number }>('/Type', { TypeName: 'Pump well' })).body.data.Id;
    const temp = (
      await admin.post<Template>('/TypeTemplateAdd', { TypeId: pumpType, TempName: 'Pump standard', IsStandard: true })
    ).body.data.Id;
    const level = (
      await admin.post<{ Id: number }>('/TypeTemplatePanel/Add', { TempId: temp, PanelTypeId: 2, PanelName: 'Levels', Sn: 1 })
    ).body.data.Id;
    const same = (
      await admin.post<{ Id: number }>('/TypeTemplatePanel/Add', { TempId: temp, PanelTypeId: 2, PanelName: 'Mine', Sn: 2 })
    ).body.data.Id;
    await admin.post('/AddTemplateProfile', {
      TempId: temp,
      PanelId: level,
      DataType: 'readable',
      DataKey: STATION_KEYS.tankLevel,
      DataName: 'Tank level',
      Unit: 'm',
    });
    await admin.post('/AddTemplateProfile', {
      TempId: temp,
      PanelId: same,
      DataType: 'readable',
      DataKey: STATION_KEYS.inflow,
      DataName: 'Inflow',
      Unit: 'm3/h',
    });
    await admin.post('/AddTemplateProfile', {
      TempId: temp,
      PanelId: level,
      DataType: 'readable',
      DataKey: 'HandNote',
      DataName: 'Template note',
    });
    await admin.post('/TypeTemplateArgs/Add', {
      TempId: temp,
      DataName: 'Report interval',
      DataType: 'textbox',
      DataValue: '30',
    });

    const changed = await admin.put<{ TypeId: number }>('/1/Device/Type', { DeviceSn: sn, TypeId: pumpType });
    expect(changed.status).toBe(200);
    expect(changed.body.data.TypeId).toBe(pumpType);
    const panels = await panelsOf();
    // The old type's Quality and Status are gone; the template's Mine is the user's panel.
    expect(panels.map((p) => p.PanelName).sort()).toEqual(['Levels', 'Mine']);
    expect(panels.find((p) => p.PanelName === 'Mine')?.Id).toBe(mine.Id);
    const levels = panels.find((p) => p.PanelName === 'Levels')?.Id;
    const defines = await definesOf();
    expect(defines.map((d) => [d.DataKey, d.PanelId]).sort()).toEqual(
      [
        [STATION_KEYS.energy, mine.Id],
        ['HandNote', null],
        [STATION_KEYS.inflow, mine.Id],
        [STATION_KEYS.tankLevel, levels],
      ].sort(),
    );
    expect(defines.find((d) => d.DataKey === 'HandNote')).toMatchObject({ DataType: 'string' });
    expect(await configsOf()).toEqual([
      ['Report interval', '30'],
      ['Site note', 'by the gate'],
    ]);

    // Setting the type it has changes nothing; another group's type is refused; no type leaves
    // only what the user added.
    await admin.put(`/1/${sn}/DeviceConfig`, {
      Id: (await admin.get<{ Id: number; DataName: string }[]>(`/1/${sn}/DeviceConfig`)).body.data.find(
        (c) => c.DataName === 'Report interval',
      )?.Id,
      DataName: 'Report interval',
      DataValue: '45',
    });
    expect((await admin.put('/1/Device/Type', { DeviceSn: sn, TypeId: pumpType })).status).toBe(200);
    expect(await configsOf()).toEqual([
      ['Report interval', '45'],
      ['Site note', 'by the gate'],
    ]);
    const foreignType = (await stranger.post<{ Id: number }>('/Type', { TypeName: 'Theirs' })).body.data.Id;
    expect(fieldsOf(await admin.put('/1/Device/Type', { DeviceSn: sn, TypeId: foreignType }))).toEqual(['TypeId']);
    expect((await definesOf()).map((d) => d.DataKey)).toContain(STATION_KEYS.tankLevel);
    expect((await operator.put('/1/Device/Type', { DeviceSn: sn, TypeId: typeId })).status).toBe(403);

    expect((await admin.put('/1/Device/Type', { DeviceSn: sn, TypeId: null })).status).toBe(200);
    expect((await panelsOf()).map((p) => p.PanelName)).toEqual(['Mine']);
    expect((await definesOf()).map((d) => d.DataKey).sort()).toEqual([STATION_KEYS.energy, 'HandNote'].sort());
    expect(await configsOf()).toEqual([['Site note', 'by the gate']]);

    // And back: the first type's template comes again.
    await admin.put('/1/Device/Type', { DeviceSn: sn, TypeId: typeId });
    expect((await panelsOf()).map((p) => p.PanelName).sort()).toEqual(['Mine', 'Quality', 'Status']);
    expect((await definesOf()).map((d) => d.DataKey).sort()).toEqual(
      [STATION_KEYS.codOut, STATION_KEYS.controlMode, STATION_KEYS.energy, 'HandNote'].sort(),
    );
  });
});
