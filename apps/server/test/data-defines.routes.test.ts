import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATION_KEYS } from '@sluice/shared/station-keys';
import { createTestApp, databaseKinds, fieldsOf, PNG, multipartFile, type TestApp } from './harness.ts';
import ExcelJS from 'exceljs';
import { client, zipFile, type Client } from './config-api.ts';
import { buildCategory, buildDataDefine, buildWarnCode, buildWarnType, type DataPoint } from './factories.ts';

const K = STATION_KEYS;
const QUALITY = '水质 Water quality';
/** Group 1's library. */
const LIBRARY: DataPoint[] = [
  ...[K.codIn, K.codOut, K.nh3nIn, K.nh3nOut, K.phOut, K.dissolvedOxygen].map((key) => ({
    key,
    type: 'readable',
    format: '2',
    category: QUALITY,
  })),
  { key: K.inflow, name: '进水流量 Inflow', unit: 'm3/H', type: 'readable', format: '2', category: '流量 Flow' },
  { key: K.tankLevel, name: '调节池液位 Tank level', unit: 'm', type: 'readable', format: '2' },
  {
    key: K.controlMode,
    name: '控制模式 Control mode',
    type: 'enum',
    format: '{"0":"manual","1":"auto","2":"self-check"}',
    defaultValue: '1',
    category: '控制 Control',
  },
  { key: K.liftPump1Fault, name: '1#提升泵故障 Lift pump 1 fault', type: 'boolean', category: '泵 Pumps' },
];

interface Define {
  Id: number;
  DataKey: string;
  DataName: string;
  Unit: string;
  DataType: string;
  DefaultValue: string;
  Format: string;
  Category: string;
}
interface Report {
  Added: number;
  Updated: number;
  Unchanged: number;
  Rejected: { Row: number; DataKey: string; Errors: { field: string; message: string }[] }[];
}

describe.each(databaseKinds)('data definitions on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let admin: Client;
  let operator: Client;
  let stranger: Client;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const users = await t.signInUsers();
    adminToken = users.admin;
    admin = client(t, adminToken);
    operator = client(t, users.operator);
    stranger = client(t, users.otherAdmin);
    const db = t.app.ctx.db;
    for (const name of [QUALITY, '流量 Flow', '控制 Control', '泵 Pumps']) await buildCategory(db, { groupId: 1, name });
    for (const point of LIBRARY) await buildDataDefine(db, { groupId: 1, ...point });
    const alarm = await buildWarnType(db, { groupId: 1, name: '报警 Alarm' });
    const fault = await buildWarnType(db, { groupId: 1, name: '故障 Fault' });
    const offline = await buildWarnType(db, { groupId: 1, name: '离线 Offline' });
    await buildWarnCode(db, { groupId: 1, warnTypeId: fault, code: 'E101', dataKey: K.liftPump1Fault });
    await buildWarnCode(db, { groupId: 1, warnTypeId: alarm, code: 'A101' });
    for (const [code, dataKey] of [
      ['A201', K.codOut],
      ['A202', K.nh3nOut],
      ['A204', K.phOut],
    ] as const) {
      await buildWarnCode(db, { groupId: 1, warnTypeId: alarm, code, dataKey });
    }
    await buildWarnCode(db, { groupId: 1, warnTypeId: offline, code: 'O001' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('pages the library with a category filter and fetches it in pages of 100', async () => {
    const page = await operator.get<Define[]>('/DataDefineLibrary?PageNo=1&PageSize=100');
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(LIBRARY.length);
    expect(page.body.data.length).toBe(LIBRARY.length);
    const second = await operator.get<Define[]>('/DataDefineLibrary?PageNo=2&PageSize=4');
    expect(second.body.data.map((d) => d.DataKey)).toEqual(page.body.data.slice(4, 8).map((d) => d.DataKey));
    const quality = await admin.get<Define[]>(
      `/DataDefineLibrary?PageSize=100&Category=${encodeURIComponent('水质 Water quality')}`,
    );
    expect(quality.body.data.map((d) => d.DataKey)).toEqual(
      expect.arrayContaining([STATION_KEYS.codIn, STATION_KEYS.phOut, STATION_KEYS.dissolvedOxygen]),
    );
    expect(quality.body.data.every((d) => d.Category.split(',').includes('水质 Water quality'))).toBe(true);
    const searched = await admin.get<Define[]>('/DataDefineLibrary?Search=nh3&OrderBy=DataKey&OrderType=desc');
    expect(searched.body.data.map((d) => d.DataKey)).toEqual([STATION_KEYS.nh3nOut, STATION_KEYS.nh3nIn]);
    expect((await admin.get('/DataDefineLibrary?PageSize=101')).status).toBe(400);
    expect((await admin.get('/DataDefineLibrary?OrderBy=secret')).status).toBe(400);
    const mode = (await admin.get<Define[]>(`/DataDefineLibrary/All?Search=${STATION_KEYS.controlMode}`)).body.data[0];
    expect(mode).toMatchObject({ DataType: 'enum', DefaultValue: '1' });
  });

  it('adds, reads, updates and deletes a data point, with defaults by data type and each bad field named', async () => {
    const bad = await admin.post('/DataDefineLibrary', { DataKey: '1bad key', DataName: '', DataType: 'float', Unit: 'parsecs' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(expect.arrayContaining(['DataKey', 'DataName', 'DataType', 'Unit']));
    const badDefault = await admin.post('/DataDefineLibrary', {
      DataKey: 'Mode2',
      DataName: 'Mode',
      DataType: 'enum',
      DefaultValue: '5',
    });
    expect(fieldsOf(badDefault)).toEqual(['DefaultValue']);
    const badFormat = await admin.post('/DataDefineLibrary', {
      DataKey: 'Switch2',
      DataName: 'Switch',
      DataType: 'boolean',
      Format: '{"1":"on","2":"off"}',
    });
    expect(fieldsOf(badFormat)).toEqual(['Format']);
    const badCategory = await admin.post('/DataDefineLibrary', {
      DataKey: 'Cat2',
      DataName: 'x',
      DataType: 'string',
      Category: 'No such tag',
    });
    expect(fieldsOf(badCategory)).toEqual(['Category']);

    const added = await admin.post<Define>('/DataDefineLibrary', {
      DataKey: 'PumpSpeed',
      DataName: 'Pump speed',
      DataType: 'boolean',
      Unit: 'rpm',
      Category: ['泵 Pumps', '控制 Control'],
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      DataKey: 'PumpSpeed',
      Unit: 'RPM',
      Format: '{"0":"0","1":"1"}',
      Category: '泵 Pumps,控制 Control',
    });
    const id = added.body.data.Id;
    expect((await admin.post('/DataDefineLibrary', { DataKey: 'pumpspeed', DataName: 'dup', DataType: 'string' })).status).toBe(
      409,
    );
    const baud = await admin.post<Define>('/DataDefineLibrary', {
      DataKey: 'Baud2',
      DataName: 'Baud',
      DataType: 'select',
      DefaultValue: '9600',
    });
    expect(baud.body.data.Format).toBe('{"1200":"1200","9600":"9600"}');
    const changed = await admin.put<Define>('/DataDefineLibrary', {
      Id: id,
      DataKey: 'PumpSpeed',
      DataName: 'Pump speed',
      DataType: 'textbox',
      DefaultValue: '1450',
      Format: '{"Min":0,"Max":3000}',
      Unit: 'RPM',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ DataType: 'textbox', DefaultValue: '1450', Format: '{"Min":0,"Max":3000}' });
    expect((await admin.get<Define>(`/DataDefineLibrary/${String(id)}`)).body.data.DataName).toBe('Pump speed');
    expect((await admin.del(`/DataDefineLibrary/${String(id)}`)).status).toBe(200);
    expect((await admin.get(`/DataDefineLibrary/${String(id)}`)).status).toBe(404);
  });

  it('lets operators read but not change the library, and keeps groups apart', async () => {
    expect((await operator.post('/DataDefineLibrary', { DataKey: 'X1', DataName: 'x', DataType: 'string' })).status).toBe(403);
    expect((await operator.post('/Category', { Name: 'x' })).status).toBe(403);
    expect((await operator.post('/DataDefineWarnCode', { DataKey: 'COD_Out', Code: 'A201' })).status).toBe(403);
    expect((await operator.post('/DataDefineLibrary/Import', {})).status).toBe(403);
    const mine = (await admin.get<Define[]>(`/DataDefineLibrary/All?Search=${STATION_KEYS.inflow}`)).body.data[0];
    expect((await stranger.get(`/DataDefineLibrary/${String(mine?.Id)}`)).status).toBe(404);
    expect((await stranger.put('/DataDefineLibrary', { ...mine, DataName: 'Hijacked' })).status).toBe(404);
    expect((await stranger.del(`/DataDefineLibrary/${String(mine?.Id)}`)).status).toBe(404);
    expect((await stranger.get<Define[]>('/DataDefineLibrary')).body.count).toBe(0);
    // Each group has its own keys: the same key may exist in both.
    expect(
      (
        await stranger.post('/DataDefineLibrary', {
          DataKey: STATION_KEYS.inflow,
          DataName: 'Their inflow',
          DataType: 'readable',
        })
      ).status,
    ).toBe(201);
    expect((await admin.get<Define>(`/DataDefineLibrary/${String(mine?.Id)}`)).body.data.DataName).toBe(mine?.DataName);
  });

  it('keeps categories consistent with the data points that carry them', async () => {
    const added = await admin.post<{ Id: number; Name: string }>('/Category', { Name: 'Sludge' });
    expect(added.status).toBe(201);
    expect(fieldsOf(await admin.post('/Category', { Name: 'a,b' }))).toEqual(['Name']);
    expect((await admin.post('/Category', { Name: 'sludge' })).status).toBe(409);
    await admin.post('/DataDefineLibrary', {
      DataKey: 'SludgeLevel',
      DataName: 'Sludge level',
      DataType: 'readable',
      Unit: 'm',
      Category: 'sludge',
    });
    const refused = await admin.del(`/Category/${String(added.body.data.Id)}`);
    expect(refused.status).toBe(409);
    await admin.put('/Category', { Id: added.body.data.Id, Name: 'Sludge handling' });
    const moved = await admin.get<Define[]>(`/DataDefineLibrary?Category=${encodeURIComponent('Sludge handling')}`);
    expect(moved.body.data.map((d) => d.DataKey)).toEqual(['SludgeLevel']);
    const all = await admin.get<{ Name: string }[]>('/Category/All');
    expect(all.body.data.map((c) => c.Name)).toContain('Sludge handling');
  });

  it('links data points to warn codes', async () => {
    const links = await operator.get<{ DataKey: string; Code: string }[]>(
      `/DataDefineWarnCode?DataKey=${STATION_KEYS.liftPump1Fault}`,
    );
    expect(links.body.data).toEqual([expect.objectContaining({ DataKey: STATION_KEYS.liftPump1Fault, Code: 'E101' })]);
    const paged = await admin.get<unknown[]>('/DataDefineWarnCode/pages?PageSize=3');
    expect(paged.body.data).toHaveLength(3);
    expect(paged.body.count).toBeGreaterThan(3);
    const added = await admin.post<{ Id: number }>('/DataDefineWarnCode', { DataKey: STATION_KEYS.tankLevel, Code: 'A101' });
    expect(added.status).toBe(201);
    expect((await admin.post('/DataDefineWarnCode', { DataKey: STATION_KEYS.tankLevel, Code: 'A101' })).status).toBe(409);
    expect(fieldsOf(await admin.post('/DataDefineWarnCode', { DataKey: 'NoSuchKey', Code: 'A101' }))).toEqual(['DataKey']);
    expect(fieldsOf(await admin.post('/DataDefineWarnCode', { DataKey: STATION_KEYS.tankLevel, Code: 'Z999' }))).toEqual([
      'Code',
    ]);
    const changed = await admin.put<{ Code: string }>('/DataDefineWarnCode', {
      Id: added.body.data.Id,
      DataKey: STATION_KEYS.tankLevel,
      Code: 'O001',
    });
    expect(changed.body.data.Code).toBe('O001');
    expect((await admin.del(`/DataDefineWarnCode/${String(added.body.data.Id)}`)).status).toBe(200);
    expect((await stranger.get<unknown[]>('/DataDefineWarnCode')).body.data).toEqual([]);
  });

  it('exports the library as CSV and imports it back, reporting each rejected row with its fields', async () => {
    const exported = await t.call({ method: 'GET', url: '/api/DataDefineLibrary/Export', token: adminToken });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    const lines = exported.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('DataKey,DataName,Unit,DataType,DefaultValue,Format,Model,Category');
    expect(lines.some((l) => l.startsWith(`${STATION_KEYS.controlMode},`))).toBe(true);

    const csv = [
      'DataKey;DataName;Unit;DataType;DefaultValue;Format;Category',
      'ORP;"Redox potential; ORP";mV;readable;;2;水质 Water quality',
      `${STATION_KEYS.inflow};进水流量 Inflow (renamed);m3/h;readable;;2;流量 Flow`,
      'bad key;Broken;;readable;;;',
      'Valve;Valve;;enum;7;;',
      'Pressure;Pressure;bar;readable;;;',
      'ORP;Duplicate;;string;;;',
      'Turbidity;Turbidity;;readable;;;New tag',
    ].join('\n');
    const imported = await t.call({
      method: 'POST',
      url: '/api/DataDefineLibrary/Import',
      token: adminToken,
      lang: 'en-US',
      ...multipartFile(Buffer.from(csv), 'library.csv', 'text/csv'),
    });
    expect(imported.statusCode).toBe(200);
    const report = imported.json<{ data: Report; message: string }>();
    expect(report.data).toMatchObject({ Added: 2, Updated: 1, Unchanged: 0 });
    expect(report.data.Rejected.map((r) => [r.Row, r.DataKey, r.Errors.map((e) => e.field)])).toEqual([
      [4, 'bad key', ['DataKey']],
      [5, 'Valve', ['DefaultValue']],
      [6, 'Pressure', ['Unit']],
      [7, 'ORP', ['DataKey']],
    ]);
    expect(report.message).toBe('Imported: 2 added, 1 updated, 4 rejected');
    const orp = (await admin.get<Define[]>('/DataDefineLibrary/All?Search=ORP')).body.data.find((d) => d.DataKey === 'ORP');
    expect(orp).toMatchObject({ DataName: 'Redox potential; ORP', Unit: 'mV', Format: '2' });
    const inflow = (await admin.get<Define[]>(`/DataDefineLibrary/All?Search=${STATION_KEYS.inflow}`)).body.data[0];
    expect(inflow).toMatchObject({ DataName: '进水流量 Inflow (renamed)', Unit: 'm3/H' });
    expect((await admin.get<{ Name: string }[]>('/Category/All')).body.data.map((c) => c.Name)).toContain('New tag');

    const again = await t.call({
      method: 'POST',
      url: '/api/DataDefineLibrary/Import?Mode=skip',
      token: adminToken,
      ...multipartFile(Buffer.from(csv), 'library.csv', 'text/csv'),
    });
    expect(again.json<{ data: Report }>().data).toMatchObject({ Added: 0, Updated: 0, Unchanged: 3 });
    const noHeader = await t.call({
      method: 'POST',
      url: '/api/DataDefineLibrary/Import',
      token: adminToken,
      ...multipartFile(Buffer.from('a,b\n1,2'), 'x.csv', 'text/csv'),
    });
    expect(noHeader.statusCode).toBe(400);
  });

  it('exports the library as an Excel workbook and imports it back through the same rules, reporting rejected rows by sheet row', async () => {
    const importFile = (bytes: Buffer, name: string) =>
      t.call({
        method: 'POST',
        url: '/api/DataDefineLibrary/Import',
        token: adminToken,
        lang: 'en-US',
        ...multipartFile(bytes, name),
      });

    const exported = await t.call({ method: 'GET', url: '/api/DataDefineLibrary/Export?Format=xlsx', token: adminToken });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(exported.headers['content-disposition']).toContain('data-defines.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'DataKey',
      'DataName',
      'Unit',
      'DataType',
      'DefaultValue',
      'Format',
      'Model',
      'Category',
    ]);
    const library = (await admin.get<Define[]>('/DataDefineLibrary/All')).body.data;
    expect(sheet.actualRowCount).toBe(library.length + 1);
    // The whole library comes back unchanged (cells are text: a Format of '2' is not a number 2).
    const roundTrip = await importFile(exported.rawPayload, 'data-defines.xlsx');
    expect(roundTrip.statusCode).toBe(200);
    expect(roundTrip.json<{ data: Report }>().data).toEqual({ Added: 0, Updated: 0, Unchanged: library.length, Rejected: [] });

    // A workbook written by hand: columns in another order, a numeric cell, a blank row kept in
    // the numbering, bad rows rejected with the same messages as a CSV's.
    const edited = new ExcelJS.Workbook();
    const own = edited.addWorksheet('Points');
    own.addRow(['DataName', 'DataKey', 'DataType', 'Unit', 'Format', 'Category']);
    own.addRow(['Chlorophyll a', 'ChlA', 'readable', 'mg/L', 2, 'Excel tag']);
    own.addRow([]);
    own.addRow(['Broken', 'bad key', 'readable', '', '', '']);
    own.addRow(['Depth', 'Depth', 'readable', 'parsecs', '', '']);
    own.addRow(['Again', 'ChlA', 'string', '', '', '']);
    const bytes = Buffer.from(await edited.xlsx.writeBuffer());
    const imported = await importFile(bytes, 'points.xlsx');
    expect(imported.statusCode).toBe(200);
    const report = imported.json<{ data: Report; message: string }>();
    expect(report.data).toMatchObject({ Added: 1, Updated: 0, Unchanged: 0 });
    expect(report.data.Rejected.map((r) => [r.Row, r.DataKey, r.Errors.map((e) => e.field)])).toEqual([
      [4, 'bad key', ['DataKey']],
      [5, 'Depth', ['Unit']],
      [6, 'ChlA', ['DataKey']],
    ]);
    expect(report.message).toBe('Imported: 1 added, 0 updated, 3 rejected');
    const added = (await admin.get<Define[]>('/DataDefineLibrary/All?Search=ChlA')).body.data.find((d) => d.DataKey === 'ChlA');
    expect(added).toMatchObject({ DataName: 'Chlorophyll a', Unit: 'mg/L', Format: '2', Category: 'Excel tag' });
    // The format is told by the bytes: the same workbook named .csv is read as a workbook.
    expect((await importFile(bytes, 'points.csv')).json<{ data: Report }>().data).toMatchObject({ Added: 0, Unchanged: 1 });

    // Files that only claim to be workbooks are refused, naming the file field.
    for (const fake of [
      PNG,
      Buffer.from('DataKey,DataName,DataType\nX,X,readable\n'),
      zipFile({ 'readme.txt': 'not a workbook' }),
    ]) {
      const refused = await importFile(fake, 'library.xlsx');
      expect(refused.statusCode).toBe(415);
      expect(refused.json<{ message: string }>().message).toBe(
        'file: The file is not an Excel workbook (.xlsx); save it as one, or as CSV',
      );
    }
    expect((await admin.get<Define[]>('/DataDefineLibrary/All?Search=X')).body.data.some((d) => d.DataKey === 'X')).toBe(false);
    // Only administrators export.
    expect((await operator.get('/DataDefineLibrary/Export?Format=xlsx')).status).toBe(403);
  });
});
