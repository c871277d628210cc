import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATION_KEYS } from '@sluice/shared/station-keys';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, PNG, type TestApp } from './harness.ts';
import { FIRMWARE, client, multipartWithFields, type Client } from './config-api.ts';
import { buildFullType, buildType } from './factories.ts';

/** Group 1's station type, with a row in every part table and a standard template (factories.ts). */
const STATION_TYPE = '村级站 Village station (A/O)';

interface Type {
  Id: number;
  TypeName: string;
  DeviceTypeName: string;
  ParentId: number;
  Status: number;
}
interface Define {
  Id: number;
  DataKey: string;
}
type Row = { Id: number } & Record<string, unknown>;

const PART_TABLES = [
  'type_data_defines',
  'type_arguments',
  'type_configs',
  'type_display_icons',
  'type_hardware_configs',
  'type_modules',
  'type_classes',
  'type_module_controls',
  'type_module_arguments',
  'type_module_feedbacks',
  'type_overviews',
  'type_schemas',
  'type_statistics',
] as const;

describe.each(databaseKinds)('device types on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let operator: Client;
  let stranger: Client;
  let stationTypeId: number;
  let profileCount: number;
  const keyId = new Map<string, number>();
  const id = (key: string) => keyId.get(key) ?? 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const users = await t.signInUsers();
    admin = client(t, users.admin);
    operator = client(t, users.operator);
    stranger = client(t, users.otherAdmin);
    const station = await buildFullType(t.app.ctx.db, { groupId: 1, name: STATION_TYPE });
    stationTypeId = station.id;
    profileCount = station.keys.size;
    for (const name of ['提升泵 Lift pump', '曝气风机 Blower'])
      await buildType(t.app.ctx.db, { groupId: 1, name, parentId: stationTypeId });
    for (let page = 1; ; page++) {
      const defines = await admin.get<Define[]>(`/DataDefineLibrary?PageNo=${String(page)}&PageSize=100`);
      for (const d of defines.body.data) keyId.set(d.DataKey, d.Id);
      if (keyId.size >= (defines.body.count ?? 0)) break;
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows device types to every signed-in user and lets only administrators change them', async () => {
    const list = await operator.get<Type[]>('/DeviceType/GetDeviceType');
    expect(list.status).toBe(200);
    expect(list.body.data.find((x) => x.Id === stationTypeId)).toMatchObject({
      TypeName: STATION_TYPE,
      DeviceTypeName: STATION_TYPE,
      ParentId: 0,
      Status: 1,
    });
    expect(list.body.data.filter((x) => x.ParentId === stationTypeId).map((x) => x.TypeName)).toEqual([
      '提升泵 Lift pump',
      '曝气风机 Blower',
    ]);
    expect((await operator.get(`/type/${String(stationTypeId)}/TypeModule`)).status).toBe(200);

    const refused = [
      await operator.post('/Type', { TypeName: 'Sneaky' }),
      await operator.put(`/Type/${String(stationTypeId)}`, { TypeName: 'Renamed' }),
      await operator.del(`/Type/${String(stationTypeId)}`),
      await operator.post(`/type/${String(stationTypeId)}/TypeModule`, { ModuleName: 'x' }),
      await operator.post('/1/Type/Copy', { SourceId: stationTypeId }),
      await operator.put(`/type/${String(stationTypeId)}/TypeModule/Sort`, { Items: [{ Id: 1, Sn: 1 }] }),
    ];
    for (const reply of refused) expect(reply.status).toBe(403);
  });

  it('adds, reads, updates and deletes a type and each part under it', async () => {
    const bad = await admin.post('/Type', { TypeName: '', Status: 5, ParentId: 99999 });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(expect.arrayContaining(['TypeName', 'Status']));
    const created = await admin.post<Type>('/Type', {
      TypeName: 'Test MBR station',
      ICON: 'station',
      Description: 'membrane',
      ParentId: stationTypeId,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      TypeName: 'Test MBR station',
      DeviceTypeName: 'Test MBR station',
      ParentId: stationTypeId,
      Status: 1,
    });
    const typeId = created.body.data.Id;
    expect((await admin.post('/Type', { TypeName: 'test mbr STATION' })).status).toBe(409);
    expect((await admin.put(`/Type/${String(typeId)}`, { TypeName: 'Test MBR station', ParentId: typeId })).status).toBe(400);
    const renamed = await admin.put<Type>(`/Type/${String(typeId)}`, { TypeName: 'MBR station', Status: 0, ParentId: 0 });
    expect(renamed.body.data).toMatchObject({ TypeName: 'MBR station', Status: 0, ParentId: 0 });
    const base = `/type/${String(typeId)}`;

    const module = await admin.post<Row>(`${base}/TypeModule`, { ModuleName: 'Pumps', ModuleType: 'pump', Sn: 1 });
    const cls = await admin.post<Row>(`${base}/Typeclass`, { Name: 'Equipment', Rank: 1 });
    const tdd = await admin.post<Row>(`${base}/TypeDataDefine`, { DataDefineId: id(STATION_KEYS.inflow), ShowType: 1 });
    expect(tdd.body.data).toMatchObject({
      DataKey: STATION_KEYS.inflow,
      Unit: 'm3/H',
      DataType: 'readable',
      ShowType: 1,
      AutoControl: false,
    });
    expect((await admin.post(`${base}/TypeDataDefine`, { DataDefineId: id(STATION_KEYS.inflow) })).status).toBe(409);
    const control = await admin.post<Row>(`${base}/TypeModuleControl`, {
      ModuleId: module.body.data.Id,
      ControlName: 'Pump 1',
      DataDefineId: id(STATION_KEYS.liftPump1Run),
      ShowType: 'switch',
      ClassId: cls.body.data.Id,
      AutoControl: 1,
    });
    expect(control.status).toBe(201);
    expect(control.body.data).toMatchObject({ Key: STATION_KEYS.liftPump1Run, AutoControl: true, ClassId: cls.body.data.Id });
    const keys = await admin.get<string[]>(`/type/${String(typeId)}/TypeDataDefine/keys`);
    expect(keys.body.data).toEqual([STATION_KEYS.inflow]);

    // Each part: add, read, change one field, delete.
    const parts: { path: string; add: Record<string, unknown>; change: Record<string, unknown> }[] = [
      {
        path: `${base}/TypeArgument`,
        add: { DefineId: id(STATION_KEYS.inflow), Name: 'Inflow', Category: 'Process' },
        change: { Name: 'Inflow rate' },
      },
      {
        path: `${base}/TypeConfig`,
        add: { DataName: 'Baud rate', DataType: 'select', DataValue: '9600', Category: 'Comm', Position: '1' },
        change: { DataValue: '1200' },
      },
      {
        path: `${base}/typedisplayIcon`,
        add: { Name: 'Pump', Sn: 1, DataDefineId: id(STATION_KEYS.liftPump1Run), Icon: 'pump' },
        change: { Icon: 'pump-2' },
      },
      {
        path: `${base}/TypeHardWareConfig`,
        add: {
          DataDefineId: id(STATION_KEYS.inflow),
          No: 'AI01',
          ModbusSlave: 1,
          RegAd: 0,
          CMD: 3,
          Lens: 1,
          KeyType: 'uint16',
          Min: 0,
          Max: 50,
        },
        change: { ModbusSlave: 17, RegAd: 107, Lens: 3 },
      },
      {
        path: `${base}/TypeModuleFeedback`,
        add: { ModuleControlId: control.body.data.Id, DataDefineId: id(STATION_KEYS.liftPump1Fault), Sn: 1 },
        change: { Sn: 2 },
      },
      {
        path: `${base}/typeoverview`,
        add: { TypeDataDefineId: tdd.body.data.Id, Name: 'Inflow', Sn: 1 },
        change: { Name: 'Flow in' },
      },
      {
        path: `${base}/TypeSchema`,
        add: { Name: 'Process', Value: 'MBR', SchemaType: 'process' },
        change: { Value: 'MBR 50 m3/d' },
      },
      {
        path: `${base}/TypeStatistics`,
        add: {
          DataDefineId: id(STATION_KEYS.codOut),
          StaticsType: 'discrete',
          Standard: '50',
          FilterType: 'range',
          Filter: '0,1000',
          Name: 'COD',
          SUnit: 'mg/L',
        },
        change: { Standard: '60' },
      },
      {
        path: `/module/${String(module.body.data.Id)}/TypeModuleArgument`,
        add: { DataDefineId: id(STATION_KEYS.liftPump1Fault), Name: 'Fault', Category: 'Alarm' },
        change: { Name: 'Pump fault' },
      },
    ];
    for (const part of parts) {
      const added = await admin.post<Row>(part.path, part.add);
      expect(added.status, `${part.path} ${JSON.stringify(added.body)}`).toBe(201);
      const partId = added.body.data.Id;
      const list = await admin.get<Row[]>(part.path);
      expect(
        list.body.data.map((r) => r.Id),
        part.path,
      ).toContain(partId);
      const one = await admin.get<Row>(`${part.path}/${String(partId)}`);
      expect(one.body.data).toMatchObject(Object.fromEntries(Object.entries(part.add).filter(([, v]) => typeof v === 'string')));
      const changed = await admin.put<Row>(part.path, { ...part.add, ...part.change, Id: partId });
      expect(changed.status, `${part.path} ${JSON.stringify(changed.body)}`).toBe(200);
      expect(changed.body.data).toMatchObject(part.change);
      if (part.path.endsWith('TypeHardWareConfig')) {
        expect(added.body.data).toMatchObject({ ReadFrame: '01 03 00 00 00 01 84 0A', Crc: '840A' });
        expect(changed.body.data).toMatchObject({ ReadFrame: '11 03 00 6B 00 03 76 87', Crc: '7687' });
      }
      if (part.path.endsWith('typedisplayIcon')) expect(added.body.data.DataDefineKey).toBe(STATION_KEYS.liftPump1Run);
      if (part.path.endsWith('TypeStatistics')) expect(added.body.data.Key).toBe(STATION_KEYS.codOut);
      expect((await admin.del(`${part.path}/${String(partId)}`)).status).toBe(200);
      expect((await admin.get(`${part.path}/${String(partId)}`)).status).toBe(404);
    }

    const byModule = await admin.get<Row[]>(`${base}/TypeModuleControl/Module/${String(module.body.data.Id)}`);
    expect(byModule.body.data.map((c) => c.ControlName)).toEqual(['Pump 1']);
    // A part is reached only under its own type.
    expect((await admin.get(`/type/${String(stationTypeId)}/TypeModule/${String(module.body.data.Id)}`)).status).toBe(404);
    expect((await admin.del(`/Type/${String(typeId)}`)).status).toBe(200);
    expect((await admin.get(`/Type/${String(typeId)}`)).status).toBe(404);
    expect((await admin.get(`${base}/TypeModule`)).status).toBe(404);
  });

  it('checks Modbus rows, formulas, statistics filters, references and schema parents, naming the field', async () => {
    const base = `/type/${String(stationTypeId)}`;
    const modbus = await admin.post(`${base}/TypeHardWareConfig`, {
      DataDefineId: id(STATION_KEYS.inflow),
      ModbusSlave: 248,
      RegAd: 70000,
      BitOffSet: 16,
      CMD: 7,
      Min: 10,
      Max: 1,
    });
    expect(modbus.status).toBe(400);
    expect(fieldsOf(modbus)).toEqual(expect.arrayContaining(['ModbusSlave', 'RegAd', 'BitOffSet', 'CMD']));
    const minMax = await admin.post(`${base}/TypeHardWareConfig`, {
      DataDefineId: id(STATION_KEYS.inflow),
      RegAd: 65535,
      Lens: 2,
      Min: 10,
      Max: 1,
    });
    expect(fieldsOf(minMax)).toEqual(['Min', 'RegAd']);
    const tooMany = await admin.post(`${base}/TypeHardWareConfig`, {
      DataDefineId: id(STATION_KEYS.inflow),
      RegAd: 0,
      CMD: 3,
      Lens: 126,
    });
    expect(fieldsOf(tooMany)).toEqual(['Lens']);
    const unknownDefine = await admin.post(`${base}/TypeHardWareConfig`, { DataDefineId: 999999, RegAd: 0 });
    expect(unknownDefine.status).toBe(400);
    expect(fieldsOf(unknownDefine)).toEqual(['DataDefineId']);

    const modules = await admin.get<Row[]>(`${base}/TypeModule`);
    const moduleId = modules.body.data[0]?.Id ?? 0;
    const formula = await admin.post(`${base}/TypeModuleControl`, {
      ModuleId: moduleId,
      ControlName: 'x',
      DataDefineId: id(STATION_KEYS.dissolvedOxygenSet),
      Formula: 'DOSet',
    });
    expect(fieldsOf(formula)).toEqual(['Formula']);
    for (const good of ['{"SettingValue":"DOSet","CurrentValue":"DO"}', 'DOSet||DO']) {
      const ok = await admin.post<Row>(`${base}/TypeModuleControl`, {
        ModuleId: moduleId,
        ControlName: 'DO',
        DataDefineId: id(STATION_KEYS.dissolvedOxygenSet),
        Formula: good,
        Unit: 'mg/l',
      });
      expect(ok.status).toBe(201);
      expect(ok.body.data.Unit).toBe('mg/L');
      await admin.del(`${base}/TypeModuleControl/${String(ok.body.data.Id)}`);
    }
    const badUnit = await admin.post(`${base}/TypeModuleControl`, {
      ModuleId: moduleId,
      ControlName: 'x',
      DataDefineId: id(STATION_KEYS.dissolvedOxygenSet),
      Unit: 'furlongs',
    });
    expect(fieldsOf(badUnit)).toEqual(['Unit']);
    const otherType = await admin.post<Type>('/Type', { TypeName: 'Scratch type' });
    const foreignModule = await admin.post<Row>(`/type/${String(otherType.body.data.Id)}/TypeModule`, {
      ModuleName: 'Elsewhere',
    });
    const wrongModule = await admin.post(`${base}/TypeModuleControl`, {
      ModuleId: foreignModule.body.data.Id,
      ControlName: 'x',
      DataDefineId: id(STATION_KEYS.inflow),
    });
    expect(fieldsOf(wrongModule)).toEqual(['ModuleId']);

    const filter = await admin.post(`${base}/TypeStatistics`, {
      DataDefineId: id(STATION_KEYS.codOut),
      StaticsType: 'discrete',
      FilterType: 'range',
      Filter: '9,1',
      Name: 'COD',
      Standard: 'abc',
    });
    expect(fieldsOf(filter)).toEqual(expect.arrayContaining(['Filter', 'Standard']));
    const kindOf = await admin.post(`${base}/TypeStatistics`, {
      DataDefineId: id(STATION_KEYS.codOut),
      StaticsType: 'average',
      Name: 'COD',
    });
    expect(fieldsOf(kindOf)).toEqual(['StaticsType']);

    const tree = await admin.get<{ Name: string; Children: { Name: string; Children: unknown[] }[] }[]>(
      `${base}/TypeSchema/Tree`,
    );
    expect(tree.body.data).toHaveLength(1);
    const root = tree.body.data[0];
    expect(root?.Children.map((c) => c.Name)).toContain('好氧池 Aerobic tank');
    const schema = await admin.get<Row[]>(`${base}/TypeSchema?PageSize=100`);
    const rootId = schema.body.data.find((n) => n.ParentId === 0)?.Id ?? 0;
    const child = schema.body.data.find((n) => n.ParentId === rootId);
    const cycle = await admin.put(`${base}/TypeSchema`, { Id: rootId, Name: 'Process', ParentId: child?.Id });
    expect(cycle.status).toBe(400);
    expect(fieldsOf(cycle)).toEqual(['ParentId']);
  });

  it('saves a new order of modules and classes in one call', async () => {
    const base = `/type/${String(stationTypeId)}`;
    const modules = await admin.get<Row[]>(`${base}/TypeModule`);
    const ids = modules.body.data.map((m) => m.Id);
    const reversed = [...ids].reverse().map((Id, i) => ({ Id, Sn: i + 1 }));
    expect((await admin.put(`${base}/TypeModule/Sort`, { Items: reversed })).status).toBe(200);
    const after = await admin.get<Row[]>(`${base}/TypeModule`);
    expect(after.body.data.map((m) => m.Id)).toEqual([...ids].reverse());
    const classes = await admin.get<Row[]>(`${base}/Typeclass`);
    const ranked = classes.body.data.map((c, i) => ({ Id: c.Id, Rank: 10 - i }));
    expect((await admin.put(`${base}/Typeclass/Sort`, ranked)).status).toBe(200);
    expect((await admin.get<Row[]>(`${base}/Typeclass`)).body.data.map((c) => c.Id)).toEqual(
      classes.body.data.map((c) => c.Id).reverse(),
    );
    // Rows of another type cannot be reordered through this one.
    const scratch = await admin.post<Type>('/Type', { TypeName: 'Reorder scratch' });
    expect((await admin.put(`/type/${String(scratch.body.data.Id)}/TypeModule/Sort`, { Items: reversed })).status).toBe(404);
  });

  it("refuses another group's types and everything under them", async () => {
    const base = `/type/${String(stationTypeId)}`;
    const attempts = [
      await stranger.get(`/Type/${String(stationTypeId)}`),
      await stranger.put(`/Type/${String(stationTypeId)}`, { TypeName: 'Hijacked' }),
      await stranger.del(`/Type/${String(stationTypeId)}`),
      await stranger.get(`${base}/TypeModule`),
      await stranger.post(`${base}/TypeModule`, { ModuleName: 'Hijack' }),
      await stranger.get(`${base}/TypeSchema/Tree`),
      await stranger.get(`${base}/TypeDataDefine/keys`),
      await stranger.post(`/${String(2)}/Type/Copy`, { SourceId: stationTypeId }),
    ];
    for (const reply of attempts) {
      expect([403, 404]).toContain(reply.status);
      expect(reply.body.success).toBe(false);
    }
    expect((await stranger.post('/1/Type/Copy', { SourceId: stationTypeId })).status).toBe(403);
    expect((await stranger.get<Type[]>('/DeviceType/GetDeviceType')).body.data).toEqual([]);
    expect((await admin.get<Type>(`/Type/${String(stationTypeId)}`)).body.data.TypeName).toBe(STATION_TYPE);
  });

  it('copies a type with everything under it, to a new type or over an existing one', async () => {
    const db = t.app.ctx.db;
    const count = async (table: (typeof PART_TABLES)[number], typeId: number) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('type_id', '=', typeId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const copied = await admin.post<Type>('/1/Type/Copy', { SourceId: stationTypeId, TypeName: 'Village station (A/O) v2' });
    expect(copied.status).toBe(201);
    const copyId = copied.body.data.Id;
    expect(copied.body.data.TypeName).toBe('Village station (A/O) v2');
    for (const table of PART_TABLES) {
      const n = await count(table, stationTypeId);
      expect(n, table).toBeGreaterThan(0);
      expect(await count(table, copyId), table).toBe(n);
    }
    // References point at the copies, not at the source's rows.
    const controls = await db
      .selectFrom('type_module_controls')
      .select(['module_id', 'class_id'])
      .where('type_id', '=', copyId)
      .execute();
    const copyModules = new Set(
      (await db.selectFrom('type_modules').select('id').where('type_id', '=', copyId).execute()).map((m) => m.id),
    );
    const copyClasses = new Set(
      (await db.selectFrom('type_classes').select('id').where('type_id', '=', copyId).execute()).map((m) => m.id),
    );
    for (const c of controls) {
      expect(copyModules.has(c.module_id)).toBe(true);
      expect(c.class_id === null || copyClasses.has(c.class_id)).toBe(true);
    }
    const tree = await admin.get<{ Children: unknown[] }[]>(`/type/${String(copyId)}/TypeSchema/Tree`);
    expect(tree.body.data).toHaveLength(1);
    expect(tree.body.data[0]?.Children.length).toBeGreaterThan(3);
    const templates = await admin.get<{ Id: number; IsStandard: boolean }[]>(
      `/GetDeviceTypeTemplatePage?TypeId=${String(copyId)}`,
    );
    expect(templates.body.data).toHaveLength(1);
    expect(templates.body.data[0]?.IsStandard).toBe(true);
    const full = await admin.get<{
      Profiles: unknown[];
      Panels: { Id: number }[];
      ControlData: { AccessoryId: number | null }[];
      Accessories: { Id: number }[];
    }>(`/GetDeviceTypeTemplate?Id=${String(templates.body.data[0]?.Id ?? 0)}`);
    expect(full.body.data.Profiles.length).toBe(profileCount);
    const accessoryIds = new Set(full.body.data.Accessories.map((a) => a.Id));
    for (const c of full.body.data.ControlData) expect(c.AccessoryId === null || accessoryIds.has(c.AccessoryId)).toBe(true);

    // Over an existing type: its parts are replaced by the source's.
    const target = await admin.post<Type>('/Type', { TypeName: 'Copy target' });
    await admin.post(`/type/${String(target.body.data.Id)}/TypeModule`, { ModuleName: 'Old module' });
    const over = await admin.post<Type>('/sys/Type/Copy', { sourceId: stationTypeId, targetid: target.body.data.Id });
    expect(over.status).toBe(201);
    const modules = await admin.get<Row[]>(`/type/${String(target.body.data.Id)}/TypeModule`);
    expect(modules.body.data.map((m) => m.ModuleName)).not.toContain('Old module');
    expect(await count('type_modules', target.body.data.Id)).toBe(await count('type_modules', stationTypeId));
    expect((await admin.post('/1/Type/Copy', { SourceId: stationTypeId, TargetId: stationTypeId })).status).toBe(400);
    // A type with everything under it deletes in one go, leaving the source whole.
    expect((await admin.del(`/Type/${String(copyId)}`)).status).toBe(200);
    for (const table of PART_TABLES) expect(await count(table, copyId), table).toBe(0);
    expect(await count('type_modules', stationTypeId)).toBeGreaterThan(0);
  });

  it('takes type images and firmware checked by their bytes, and copies files between types', async () => {
    const typeId = (await admin.post<Type>('/Type', { TypeName: 'Files type' })).body.data.Id;
    const upload = (url: string, body: ReturnType<typeof multipartWithFields>) =>
      t.call({ method: 'POST', url: `/api${url}`, token: adminToken, lang: 'en-US', ...body });
    const adminToken = await t.login(ADMIN.account, ADMIN.password);
    const image = await upload(
      `/type/${String(typeId)}/TypeImage`,
      multipartWithFields({ ImageName: 'front' }, PNG, 'front.png'),
    );
    expect(image.statusCode).toBe(201);
    const second = await upload('/TypeImagesAdd', multipartWithFields({ TypeId: String(typeId) }, PNG, 'back.png'));
    expect(second.statusCode).toBe(201);
    expect(second.json<{ data: { Sn: number; url: string } }>().data.Sn).toBe(2);
    const notImage = await upload(`/type/${String(typeId)}/TypeImage`, multipartWithFields({}, FIRMWARE, 'fake.png'));
    expect(notImage.statusCode).toBe(415);
    const images = await admin.get<{ Id: number; url: string }[]>(`/type/${String(typeId)}/TypeImage`);
    expect(images.body.data).toHaveLength(2);
    expect((await t.call({ method: 'GET', url: images.body.data[0]?.url ?? '' })).headers['content-type']).toBe('image/png');
    const [a, b] = images.body.data.map((i) => i.Id);
    const saved = await admin.put<{ Id: number }[]>('/TypeImages/TypeImageSave', {
      TypeId: typeId,
      Images: [
        { Id: a, Sn: 2 },
        { Id: b, Sn: 1, ImageName: 'rear' },
      ],
    });
    expect(saved.body.data.map((i) => i.Id)).toEqual([b, a]);

    const firmware = await upload(
      `/type/${String(typeId)}/TypeUpdateFile`,
      multipartWithFields({ Version: 'V1.2.x', Role: 'bootloader', Description: 'boot' }, FIRMWARE, 'boot.bin'),
    );
    expect(firmware.statusCode).toBe(201);
    const file = firmware.json<{ data: { Version: string; Role: string; Size: number; Sha256: string; url: string } }>().data;
    expect(file).toMatchObject({ Version: 'V1.2.x', Role: 'bootloader', Size: FIRMWARE.length });
    expect(file.Sha256).toMatch(/^[0-9a-f]{64}$/);
    const badVersion = await upload(
      '/TypeUpdateFileAdd',
      multipartWithFields({ TypeId: String(typeId), Version: '1.2', Role: 'kernel' }, FIRMWARE, 'x.bin'),
    );
    expect(badVersion.statusCode).toBe(400);
    expect(fieldsOf(badVersion)).toEqual(expect.arrayContaining(['Version', 'Role']));
    const tooBig = await upload(
      `/type/${String(typeId)}/TypeUpdateFile`,
      multipartWithFields({ Version: 'V1.0.0' }, Buffer.alloc(3 * 1024 * 1024 + 1, 7), 'big.bin'),
    );
    expect(tooBig.statusCode).toBe(413);
    expect((await admin.get<unknown[]>(`/type/${String(typeId)}/TypeUpdateFile`)).body.data).toHaveLength(1);

    const target = (await admin.post<Type>('/Type', { TypeName: 'Files target' })).body.data.Id;
    expect((await admin.post('/1/Type/copyfiles', { SourceId: typeId, TargetId: target })).status).toBe(200);
    const copiedImages = await admin.get<{ url: string }[]>(`/type/${String(target)}/TypeImage`);
    expect(copiedImages.body.data).toHaveLength(2);
    // The copy has bytes of its own: deleting the source type leaves them.
    expect((await admin.del(`/Type/${String(typeId)}`)).status).toBe(200);
    expect((await t.call({ method: 'GET', url: copiedImages.body.data[0]?.url ?? '' })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: file.url })).statusCode).toBe(404);
  });

  it('refuses to delete a type with sub-types or devices, and a data point that a type uses', async () => {
    const parent = await admin.del(`/Type/${String(stationTypeId)}`);
    expect(parent.status).toBe(409);
    const typeId = (await admin.post<Type>('/Type', { TypeName: 'Used type' })).body.data.Id;
    const device = await admin.post<{ Device: { DeviceSn: string } }>('/1/Device', { DeviceName: 'Station PLC', TypeId: typeId });
    expect(device.status).toBe(201);
    const refused = await admin.del(`/Type/${String(typeId)}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('1');
    const inUse = await admin.del(`/DataDefineLibrary/${String(id(STATION_KEYS.inflow))}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toContain(STATION_KEYS.inflow);
  });
});
