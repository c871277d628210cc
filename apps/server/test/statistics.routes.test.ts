/**
 * The statistics calls (§7): {g}/DeviceStatisticsData, {g}/DeviceDiscreteStatistics and
 * Device/GetRegionStatisticsDevice over live data written as ingestion writes it, on SQLite and
 * PostgreSQL; scoped by tenant and role projects. Figures worked out by hand in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscreteRecordDto, RegionStatisticsDto, StatisticsRecordDto } from '@sluice/shared/statistics.schema';
import { ensureRawPartitions } from '../src/db/telemetry-partitions.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../src/modules/telemetry/telemetry-write.repository.ts';
import { buildDevice, buildSites, buildType, defaultRole } from './factories.ts';
import { createTestApp, databaseKinds, fieldsOf, type TestApp, type Users } from './harness.ts';

const H = 3_600_000;
const DAY = 24 * H;
const SN = 'SLSTAT000001';
const HIDDEN = 'SLSTAT000002';
/** A device of a sub-type that defines no statistics of its own, in no station. */
const CHILD = 'SLSTAT000003';

describe.each(databaseKinds)('statistics calls on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let g: number;
  let stationA: number;
  let projectB: number;
  // The 10th and 11th of last month (local days): away from month ends whatever day the test runs.
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const day1 = `${month}-10`;
  const day2 = `${month}-11`;
  let d1: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await t.signInUsers();
    const { db, dialect } = t.app.ctx;
    const admin = await db.selectFrom('users').select('group_id').where('account', '=', 'admin').executeTakeFirstOrThrow();
    g = admin.group_id;
    const offset = t.app.live.offsetMinutes;
    d1 = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 10) - offset * 60_000;

    const type = await buildType(db, {
      groupId: g,
      points: [
        { key: 'FlowTotal', unit: 'm3' },
        { key: 'COD_Out', unit: 'mg/L' },
        { key: 'LiftPump1Run', type: 'boolean' },
      ],
    });
    const ids = new Map<string, number>();
    for (const key of ['FlowTotal', 'COD_Out', 'LiftPump1Run']) {
      const row = await db
        .selectFrom('data_defines')
        .select('id')
        .where('group_id', '=', g)
        .where('data_key', '=', key)
        .executeTakeFirstOrThrow();
      ids.set(key, row.id);
    }
    const stat = (key: string, statics_type: string, standard: string, filter: string, name: string) => ({
      group_id: g,
      type_id: type.id,
      stat_key: key,
      data_define_id: ids.get(key) ?? 0,
      statics_type,
      standard,
      filter_value: filter,
      filter_type: filter ? 'range' : 'none',
      s_unit: '',
      name,
    });
    await db
      .insertInto('type_statistics')
      .values([
        stat('FlowTotal', 'cumulative', '', '0,100000', 'Treated water'),
        stat('COD_Out', 'discrete', '50', '0,1000', 'Effluent COD'),
        stat('LiftPump1Run', 'discrete', '', '', 'Lift pump 1'),
      ])
      .execute();

    const operatorRole = await defaultRole(db, g, 'Operator');
    const granted = await buildSites(t.app.ctx, {
      groupId: g,
      roles: [{ roleId: operatorRole }],
      tree: {
        projects: [{ name: 'Granted', stations: [{ name: 'Station A', devices: [{ sn: SN, typeId: type.id, online: true }] }] }],
      },
    });
    stationA = granted.id('Station A');
    const hidden = await buildSites(t.app.ctx, {
      groupId: g,
      tree: { projects: [{ name: 'Hidden', stations: [{ name: 'Station B', devices: [{ sn: HIDDEN, typeId: type.id }] }] }] },
    });
    projectB = hidden.id('Hidden');
    const child = await db
      .insertInto('device_types')
      .values({ group_id: g, type_name: 'Lift pump', parent_id: type.id, status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await buildDevice(t.app.ctx, { groupId: g, sn: CHILD, typeId: child.id });

    if (dialect === 'postgres') await ensureRawPartitions(db, d1, 0, 0);
    const writer = new TelemetryWriteRepository(db, dialect, offset);
    const p = (sn: string, key: string, ts: number, num: number): BatchPoint => ({
      groupId: g,
      deviceSn: sn,
      key,
      defined: true,
      ts,
      num,
      txt: null,
    });
    await writer.commit(
      [
        // Day 1 COD: 40, 45, a spike of 5000 (filter 0,1000), 50 → min 40, avg 45, max 50; within 50.
        p(SN, 'COD_Out', d1 + 0.5 * H, 40),
        p(SN, 'COD_Out', d1 + 1.5 * H, 45),
        p(SN, 'COD_Out', d1 + 2.5 * H, 5000),
        p(SN, 'COD_Out', d1 + 3.5 * H, 50),
        // Day 2 COD: 60, 62 → avg 61, over the standard.
        p(SN, 'COD_Out', d1 + DAY + 0.5 * H, 60),
        p(SN, 'COD_Out', d1 + DAY + 1.5 * H, 62),
        // Day 1 counter: 100 → 150 (+50) → 30 (reset, +30) → 80 (+50), then 100 at day 2's midnight (+20, all in day 1): 150.
        p(SN, 'FlowTotal', d1 + 1 * H, 100),
        p(SN, 'FlowTotal', d1 + 2 * H, 150),
        p(SN, 'FlowTotal', d1 + 3 * H, 30),
        p(SN, 'FlowTotal', d1 + 4 * H, 80),
        // Day 2: 100 at 00:00, 160 at 06:00 → 60.
        p(SN, 'FlowTotal', d1 + DAY, 100),
        p(SN, 'FlowTotal', d1 + DAY + 6 * H, 160),
        // Day 1 pump: on 00:00–00:30, off 00:30–01:00, on from 01:00 (held an hour): 5400 s on, 1800 s off.
        p(SN, 'LiftPump1Run', d1, 1),
        p(SN, 'LiftPump1Run', d1 + 0.5 * H, 0),
        p(SN, 'LiftPump1Run', d1 + 1 * H, 1),
        // The sub-type's device: +20.
        p(CHILD, 'FlowTotal', d1 + 1 * H, 10),
        p(CHILD, 'FlowTotal', d1 + 5 * H, 30),
        // The hidden station's device.
        p(HIDDEN, 'FlowTotal', d1 + 1 * H, 10),
        p(HIDDEN, 'FlowTotal', d1 + 5 * H, 30),
      ],
      [],
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const get = <T>(url: string, token: string) => t.json<T>({ method: 'GET', url, token });

  it('answers each day of a device: the range filter keeps a spike out, the counter total survives a reset', async () => {
    const res = await get<StatisticsRecordDto[]>(
      `/api/${String(g)}/DeviceStatisticsData?Begin=${day1}&End=${day2}&DeviceSn=${SN}`,
      users.operator,
    );
    expect(res.success).toBe(true);
    expect(res.data.map((r) => r.Date)).toEqual([day1, day2]);
    const [first, second] = res.data;
    const item = (r: StatisticsRecordDto | undefined, key: string) => r?.Data.find((d) => d.Key === key);
    expect(item(first, 'COD_Out')).toMatchObject({
      Values: { Min: 40, Avg: 45, Max: 50, Count: 3, Filtered: 1 },
      Standard: '50',
      Compliant: true,
      Excluded: false,
    });
    expect(item(second, 'COD_Out')).toMatchObject({ Values: { Min: 60, Avg: 61, Max: 62 }, Compliant: false });
    expect(item(first, 'FlowTotal')?.Values).toEqual({ Total: 150, Count: 1, Filtered: 0 });
    expect(item(second, 'FlowTotal')?.Values).toEqual({ Total: 60, Count: 1, Filtered: 0 });
    // States are timed by the discrete call, not averaged here.
    expect(item(first, 'LiftPump1Run')).toBeUndefined();
  });

  it('gives a device of a sub-type the statistics of the type above it', async () => {
    const res = await get<StatisticsRecordDto[]>(
      `/api/${String(g)}/DeviceStatisticsData?Begin=${day1}&End=${day1}&DeviceSn=${CHILD}`,
      users.admin,
    );
    expect(res.data[0]?.Data.map((d) => [d.Key, d.Standard, d.Values?.Total ?? null])).toEqual([
      ['FlowTotal', '', 20],
      ['COD_Out', '50', null],
    ]);
  });

  it('answers a month: totals of the days, min/avg/max of the counted readings, days within the standard', async () => {
    const res = await get<StatisticsRecordDto[]>(
      `/api/${String(g)}/DeviceStatisticsData?Begin=${day1}&End=${day2}&DeviceSn=${SN}&Period=month`,
      users.admin,
    );
    expect(res.data).toHaveLength(1);
    const [record] = res.data;
    expect(record?.Date).toBe(month);
    expect(record?.Data.find((d) => d.Key === 'FlowTotal')?.Values).toMatchObject({ Total: 210, Count: 2 });
    // 40, 45, 50, 60, 62: avg 51.4.
    expect(record?.Data.find((d) => d.Key === 'COD_Out')).toMatchObject({
      Values: { Min: 40, Avg: 51.4, Max: 62, Count: 5, Filtered: 1 },
      MeasuredDays: 2,
      CompliantDays: 1,
    });
  });

  it('answers time in each state and the days within the standard', async () => {
    const res = await get<DiscreteRecordDto[]>(
      `/api/${String(g)}/DeviceDiscreteStatistics?Begin=${day1}&End=${day2}&ProjectId=${String(stationA)}`,
      users.operator,
    );
    expect(res.data.map((r) => r.DeviceSn)).toEqual([SN]);
    const items = res.data[0]?.Items ?? [];
    const pump = items.find((i) => i.Key === 'LiftPump1Run');
    expect(pump?.States).toEqual([
      { State: '0', Seconds: 1800, Share: 0.25 },
      { State: '1', Seconds: 5400, Share: 0.75 },
    ]);
    const cod = items.find((i) => i.Key === 'COD_Out');
    expect(cod).toMatchObject({ MeasuredDays: 2, CompliantDays: 1, Rate: 0.5 });
    expect(cod?.Days?.map((d) => [d.Date, d.Avg, d.Compliant])).toEqual([
      [day1, 45, true],
      [day2, 61, false],
    ]);
  });

  it('answers per station today and this month, only the stations the caller reaches', async () => {
    const operator = await get<RegionStatisticsDto>(`/api/Device/GetRegionStatisticsDevice?Date=${day2}`, users.operator);
    expect(operator.success).toBe(true);
    expect(operator.data).toMatchObject({ Date: day2, Month: month });
    expect(operator.data.Sites.map((s) => s.Name)).toEqual(['Station A']);
    expect(operator.data.Sites[0]).toMatchObject({
      ProjectId: stationA,
      DeviceNum: 1,
      OnlineNum: 1,
      TreatedToday: 60,
      TreatedMonth: 210,
      Compliance: { MeasuredDays: 2, CompliantDays: 1, Rate: 0.5 },
    });
    expect(operator.data.Sites[0]?.Totals[0]?.Days).toEqual([
      { Date: day1, Value: 150 },
      { Date: day2, Value: 60 },
    ]);
    // The administrator reaches both; by project, the hidden project's counter rose 20 on day 1.
    const admin = await get<RegionStatisticsDto>(`/api/Device/GetRegionStatisticsDevice?Date=${day2}&By=project`, users.admin);
    expect(admin.data.Sites.map((s) => [s.Name, s.TreatedMonth])).toEqual([
      ['Granted', 210],
      ['Hidden', 20],
    ]);
    expect(admin.data.Total).toMatchObject({ ProjectId: null, DeviceNum: 2, TreatedMonth: 230, TreatedToday: 60 });
  });

  it('gives a chart the standard of each series, and exports the same rows as CSV and as an Excel workbook', async () => {
    const range = `BeginTime=${day1}&EndTime=${day2}&Keys=COD_Out,FlowTotal`;
    const chart = await get<{ Series: { Key: string; Standard?: string }[] }>(
      `/api/${String(g)}/${SN}/DeviceHisData?${range}`,
      users.operator,
    );
    expect(chart.data.Series.map((s) => [s.Key, s.Standard])).toEqual([
      ['COD_Out', '50'],
      ['FlowTotal', undefined],
    ]);
    const csv = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/${SN}/DeviceHisData?${range}&Format=csv`,
      token: users.operator,
    });
    const csvRows = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(csvRows[0]).toEqual(['Time', 'COD_Out', 'FlowTotal']);
    const xlsx = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/${SN}/DeviceHisData?${range}&Format=xlsx`,
      token: users.operator,
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.rawPayload).buffer);
    const sheetRows: string[][] = [];
    workbook.worksheets[0]?.eachRow((row) => {
      sheetRows.push(
        [1, 2, 3].map((i) => {
          const v = row.getCell(i).value;
          return typeof v === 'number' || typeof v === 'string' ? String(v) : '';
        }),
      );
    });
    // 12 readings at 12 times (COD and the counter share none) under the header; numbers stored as numbers.
    expect(sheetRows).toHaveLength(csvRows.length);
    expect(sheetRows).toEqual(csvRows);
    expect(typeof workbook.worksheets[0]?.getRow(2).getCell(2).value).toBe('number');
  });

  it('keeps the home panel’s statistic cards per user, refusing an unknown card', async () => {
    const cards = ['treated', 'compliance', 'total:RunTimeDay'];
    const saved = await t.call({
      method: 'PUT',
      url: '/api/user/config',
      token: users.operator,
      payload: { StatisticsCards: cards },
    });
    expect(saved.statusCode).toBe(200);
    const mine = await get<{ StatisticsCards?: string[] }>('/api/user/config', users.operator);
    expect(mine.data.StatisticsCards).toEqual(cards);
    // Another user's settings are their own.
    expect((await get<{ StatisticsCards?: string[] }>('/api/user/config', users.admin)).data.StatisticsCards).toBeUndefined();
    const bad = await t.call({
      method: 'PUT',
      url: '/api/user/config',
      token: users.operator,
      payload: { StatisticsCards: ['drop table'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)[0]).toMatch(/^StatisticsCards/);
    expect((await get<{ StatisticsCards?: string[] }>('/api/user/config', users.operator)).data.StatisticsCards).toEqual(cards);
  });

  it('refuses bad ranges naming the field, in the caller’s language', async () => {
    const bad = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/DeviceStatisticsData?Begin=2026-13&End=${day2}`,
      token: users.admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toContain('Begin');
    const reversed = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/DeviceDiscreteStatistics?Begin=${day2}&End=${day1}`,
      token: users.admin,
      lang: 'zh-CN',
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json<{ message: string }>().message).toContain('开始时间');
    const long = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/DeviceStatisticsData?Begin=2024-01-01&End=2025-06-01`,
      token: users.admin,
    });
    expect(long.statusCode).toBe(400);
    expect(fieldsOf(long)).toContain('End');
  });

  it('refuses callers without a session, of another tenant, or without a grant of the project', async () => {
    const url = `/api/${String(g)}/DeviceStatisticsData?Begin=${day1}&End=${day2}&DeviceSn=${SN}`;
    expect((await t.call({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/Device/GetRegionStatisticsDevice' })).statusCode).toBe(401);
    // Another tenant's administrator: neither the path's group nor the device.
    expect((await t.call({ method: 'GET', url, token: users.otherAdmin })).statusCode).not.toBe(200);
    const otherGroup = await t.call({
      method: 'GET',
      url: `/api/${String(users.other.groupId)}/DeviceStatisticsData?Begin=${day1}&End=${day2}&DeviceSn=${SN}`,
      token: users.otherAdmin,
    });
    expect(otherGroup.statusCode).toBe(404);
    const otherRegion = await get<RegionStatisticsDto>('/api/Device/GetRegionStatisticsDevice', users.otherAdmin);
    expect(otherRegion.data.Sites).toEqual([]);
    // The operator's role has no grant of the hidden project or its device.
    const project = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/DeviceDiscreteStatistics?Begin=${day1}&End=${day2}&ProjectId=${String(projectB)}`,
      token: users.operator,
    });
    expect(project.statusCode).toBe(404);
    const device = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/DeviceStatisticsData?Begin=${day1}&End=${day2}&DeviceSn=${HIDDEN}`,
      token: users.operator,
    });
    expect(device.statusCode).toBe(404);
    const region = await t.call({
      method: 'GET',
      url: `/api/Device/GetRegionStatisticsDevice?ProjectId=${String(projectB)}`,
      token: users.operator,
    });
    expect(region.statusCode).toBe(404);
  });
});
