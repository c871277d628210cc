/**
 * Alarm records through the §7 calls: listed, filtered and counted over the devices a user
 * reaches; handled one at a time or many with one comment; raised by hand and cleared by their
 * handling; deleted; the offline alarm opened by the time-out and cleared when the device is
 * heard again (the sweep's clock given, not waited for). Nothing of another tenant is seen or
 * changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WarnDto, WarnInfoDto, WarnStatisticsDto } from '@sluice/shared/alarm.schema';
import { OFFLINE_WARN_CODE } from '@sluice/shared/alarm.schema';
import { createTestApp, databaseKinds, fieldsOf, type Body, type TestApp, type Users } from './harness.ts';
import { buildDevice, buildSites, buildWarnCode, buildWarnType, defaultRole, type BuiltSites } from './factories.ts';
import type { KnownDevice } from '../src/modules/telemetry/device-directory.ts';

const A1 = 'SLA000000001';
const A2 = 'SLA000000002';
const B1 = 'SLB000000001';
const VIEW = 'SLV000000001';
const DAY = 86_400_000;

describe.each(databaseKinds)('alarm records on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let sites: BuiltSites;
  let groupId: number;
  let faultType: number;
  let alarmType: number;
  const known = new Map<string, KnownDevice>();
  const t0 = Date.UTC(2026, 10, 20, 2, 0, 0);

  const device = (sn: string) => {
    const d = known.get(sn);
    if (!d) throw new Error(`no device ${sn}`);
    return d;
  };
  const list = (token: string, query = '') => t.json<WarnDto[]>({ method: 'GET', url: `/api/Warn?PageSize=100${query}`, token });

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    groupId = (await db.selectFrom('users').select('group_id').where('account', '=', 'admin').executeTakeFirstOrThrow()).group_id;
    const operatorRole = await defaultRole(db, groupId, 'Operator');
    faultType = await buildWarnType(db, { groupId, name: 'Fault', color: '#f5222d' });
    alarmType = await buildWarnType(db, { groupId, name: 'Alarm', color: '#faad14' });
    const offlineType = await buildWarnType(db, { groupId, name: 'Offline', color: '#8c8c8c' });
    await buildWarnCode(db, { groupId, warnTypeId: faultType, code: 'E101', description: 'Lift pump 1 fault' });
    await buildWarnCode(db, { groupId, warnTypeId: faultType, code: 'E201', description: 'Blower 1 fault' });
    await buildWarnCode(db, { groupId, warnTypeId: alarmType, code: 'A101', description: 'High level' });
    await buildWarnCode(db, { groupId, warnTypeId: offlineType, code: OFFLINE_WARN_CODE, description: 'Device offline' });
    // The operator manages project A, only views project V, and does not reach project B.
    sites = await buildSites(t.app.ctx, {
      groupId,
      tree: { projects: [{ name: 'Project A', stations: [{ name: 'Station A', devices: [{ sn: A1 }, { sn: A2 }] }] }] },
      roles: [{ roleId: operatorRole, operate: 0 }],
    });
    const b = await buildSites(t.app.ctx, {
      groupId,
      tree: { projects: [{ name: 'Project B', stations: [{ name: 'Station B', devices: [{ sn: B1 }] }] }] },
    });
    const v = await buildSites(t.app.ctx, {
      groupId,
      tree: { projects: [{ name: 'Project V', stations: [{ name: 'Station V', devices: [{ sn: VIEW }] }] }] },
      roles: [{ roleId: operatorRole, operate: 1 }],
    });
    for (const sn of [...sites.devices.keys(), ...b.devices.keys(), ...v.devices.keys()]) {
      const k = await t.app.live.directory.device(sn);
      if (!k) throw new Error(`device ${sn} unknown`);
      known.set(sn, k);
    }
    // Another tenant's device with an alarm of its own.
    const other = users.other.groupId;
    await buildWarnType(db, { groupId: other, name: 'Fault' });
    const theirs = await buildDevice(t.app.ctx, { groupId: other, sn: 'SLO000000001' });
    const theirsKnown = await t.app.live.directory.device(theirs.sn);
    if (!theirsKnown) throw new Error('other device unknown');
    await t.app.live.alarms.setActive(theirsKnown, ['E101'], t0);

    const alarms = t.app.live.alarms;
    await alarms.setActive(device(A1), ['E101', 'E201'], t0);
    await alarms.setActive(device(A2), ['A101'], t0 + DAY);
    await alarms.setActive(device(B1), ['E101'], t0 + 2 * DAY);
    await alarms.setActive(device(VIEW), ['E101'], t0 + 3 * DAY);
    // Blower 1 recovers: its alarm is cleared but kept.
    await alarms.setActive(device(A1), ['E101'], t0 + 60_000);
  });

  afterAll(async () => {
    await t.close();
  });

  it('lists the alarms of the devices the user reaches, newest first, with code names and sites', async () => {
    const all = await list(users.admin);
    expect(all.count).toBe(5);
    expect(all.data.map((w) => w.DeviceSn)).toEqual([VIEW, B1, A2, A1, A1]);
    const blower = all.data.find((w) => w.Code === 'E201');
    expect(blower).toMatchObject({
      Description: 'Blower 1 fault',
      TypeName: 'Fault',
      Color: '#f5222d',
      ProjectName: 'Station A',
      Active: 0,
      State: 0,
      Source: 'device',
      ClearedAt: t0 + 60_000,
    });
    const operator = await list(users.operator);
    expect(operator.data.map((w) => w.DeviceSn).sort()).toEqual([A1, A1, A2, VIEW]);
    const other = await list(users.otherAdmin);
    expect(other.data.map((w) => w.DeviceSn)).toEqual(['SLO000000001']);
  });

  it('filters by state, activity, project, warn type, time and search, and orders and pages', async () => {
    const ids = async (query: string) => (await list(users.admin, query)).data.map((w) => `${w.DeviceSn}:${w.Code}`);
    expect(await ids('&Active=0')).toEqual([`${A1}:E201`]);
    expect((await ids('&Active=1')).length).toBe(4);
    expect(await ids(`&ProjectId=${String(sites.id('Project A'))}&OrderBy=Code&OrderType=asc`)).toEqual([
      `${A2}:A101`,
      `${A1}:E101`,
      `${A1}:E201`,
    ]);
    expect(await ids(`&TypeId=${String(alarmType)}`)).toEqual([`${A2}:A101`]);
    expect(await ids(`&BeginTime=${String(t0 + DAY)}&EndTime=${String(t0 + 2 * DAY)}`)).toEqual([`${A2}:A101`]);
    expect(await ids('&Search=blower')).toEqual([`${A1}:E201`]);
    expect(await ids(`&DeviceSn=${B1}`)).toEqual([`${B1}:E101`]);
    const page = await t.json<WarnDto[]>({ method: 'GET', url: '/api/Warn?PageNo=2&PageSize=2', token: users.admin });
    expect(page.count).toBe(5);
    expect(page.data.map((w) => w.DeviceSn)).toEqual([A2, A1]);
    const bad = await t.call({ method: 'GET', url: '/api/Warn?State=7&BeginTime=yesterday', token: users.admin });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toContain('State');
  });

  it("lists a device's active alarms, and none of a device the user does not reach", async () => {
    const a1 = await t.json<WarnDto[]>({ method: 'GET', url: `/api/${A1}/Warn?Active=1`, token: users.operator });
    expect(a1.data.map((w) => w.Code)).toEqual(['E101']);
    const b1 = await t.call({ method: 'GET', url: `/api/${B1}/Warn`, token: users.operator });
    expect(b1.statusCode).toBe(404);
  });

  it('handles one alarm with comments: by whom and when; once', async () => {
    const [alarm] = (await t.json<WarnDto[]>({ method: 'GET', url: `/api/${A2}/Warn`, token: users.operator })).data;
    if (!alarm) throw new Error('no alarm');
    const empty = await t.call({
      method: 'PUT',
      url: `/api/${A2}/Warn`,
      token: users.operator,
      payload: { Id: alarm.Id, Comments: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(fieldsOf(empty)).toEqual(['Comments']);
    const wrongDevice = await t.call({
      method: 'PUT',
      url: `/api/${A1}/Warn`,
      token: users.operator,
      payload: { Id: alarm.Id, Comments: 'x' },
    });
    expect(wrongDevice.statusCode).toBe(404);
    const before = Date.now();
    const res = await t.call({
      method: 'PUT',
      url: `/api/${A2}/Warn`,
      token: users.operator,
      payload: { Id: alarm.Id, Comments: 'Float switch cleaned' },
    });
    expect(res.statusCode).toBe(200);
    const handled = res.json<Body<WarnDto>>().data;
    expect(handled).toMatchObject({ State: 1, Comments: 'Float switch cleaned', HandledBy: 'operator', Active: 1 });
    expect(handled.HandledAt).toBeGreaterThanOrEqual(before);
    const again = await t.call({
      method: 'PUT',
      url: `/api/${A2}/Warn`,
      token: users.operator,
      payload: { Id: alarm.Id, Comments: 'again' },
    });
    expect(again.statusCode).toBe(409);
    expect((await list(users.admin, '&State=1')).data.map((w) => w.Id)).toEqual([alarm.Id]);
  });

  it('refuses handling through a view-only grant and another tenant, changing nothing', async () => {
    const [viewOnly] = (await t.json<WarnDto[]>({ method: 'GET', url: `/api/${VIEW}/Warn`, token: users.operator })).data;
    if (!viewOnly) throw new Error('no alarm');
    const res = await t.call({
      method: 'PUT',
      url: `/api/${VIEW}/Warn`,
      token: users.operator,
      payload: { Id: viewOnly.Id, Comments: 'x' },
    });
    expect(res.statusCode).toBe(403);
    const bulk = await t.call({
      method: 'PUT',
      url: '/api/Warn',
      token: users.otherAdmin,
      payload: { Ids: [viewOnly.Id], Comments: 'x' },
    });
    expect(bulk.statusCode).toBe(404);
    expect((await list(users.admin, `&DeviceSn=${VIEW}`)).data[0]?.State).toBe(0);
  });

  it('handles many alarms with one comment; all or nothing when one is out of reach', async () => {
    const open = (await list(users.admin, '&State=0')).data;
    const [b1] = open.filter((w) => w.DeviceSn === B1);
    const mine = open.filter((w) => w.DeviceSn === A1);
    if (!b1) throw new Error('no alarm');
    const refused = await t.call({
      method: 'PUT',
      url: '/api/Warn',
      token: users.operator,
      payload: { Ids: [...mine.map((w) => w.Id), b1.Id], Comments: 'Night round' },
    });
    expect(refused.statusCode).toBe(404);
    expect((await list(users.admin, `&DeviceSn=${A1}&State=1`)).count).toBe(0);
    const res = await t.call({
      method: 'PUT',
      url: '/api/Warn',
      token: users.operator,
      payload: { Ids: mine.map((w) => w.Id), Comments: 'Night round' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<{ Handled: number[] }>>().data.Handled.sort()).toEqual(mine.map((w) => w.Id).sort());
    const handled = (await list(users.admin, `&DeviceSn=${A1}`)).data;
    expect(handled.every((w) => w.State === 1 && w.Comments === 'Night round')).toBe(true);
  });

  it('counts what the bell shows', async () => {
    const info = await t.json<WarnInfoDto>({ method: 'GET', url: '/api/Warn/GetWarnInfo', token: users.admin });
    // B1 and VIEW are active and unhandled; A1's E101 and A2's A101 are handled.
    expect(info.data).toMatchObject({ ActiveUnhandled: 2, Unhandled: 2 });
    expect(info.data.Latest.map((w) => w.DeviceSn)).toEqual([VIEW, B1]);
    const operator = await t.json<WarnInfoDto>({ method: 'GET', url: '/api/Warn/GetWarnInfo', token: users.operator });
    expect(operator.data.ActiveUnhandled).toBe(1);
  });

  it('raises an alarm by hand with a warn code of the group; handling it clears it', async () => {
    const unknownCode = await t.call({
      method: 'POST',
      url: '/api/Warn/WarnAdd',
      token: users.operator,
      payload: { DeviceSn: A1, Code: 'Z999' },
    });
    expect(unknownCode.statusCode).toBe(400);
    expect(fieldsOf(unknownCode)).toEqual(['Code']);
    const unreached = await t.call({
      method: 'POST',
      url: '/api/Warn/WarnAdd',
      token: users.operator,
      payload: { DeviceSn: B1, Code: 'A101' },
    });
    expect(unreached.statusCode).toBe(400);
    expect(fieldsOf(unreached)).toEqual(['DeviceSn']);
    const res = await t.call({
      method: 'POST',
      url: '/api/Warn/WarnAdd',
      token: users.operator,
      payload: { DeviceSn: A1, Code: 'A101', Comments: 'Overflow seen on site' },
    });
    expect(res.statusCode).toBe(201);
    const added = res.json<Body<WarnDto>>().data;
    expect(added).toMatchObject({
      Source: 'manual',
      Active: 1,
      State: 0,
      Description: 'High level',
      Comments: 'Overflow seen on site',
    });
    // The device's own error set does not clear a manual alarm.
    await t.app.live.alarms.setActive(device(A1), [], Date.now());
    expect(
      (await t.json<WarnDto[]>({ method: 'GET', url: `/api/${A1}/Warn?Active=1`, token: users.admin })).data.map((w) => w.Id),
    ).toEqual([added.Id]);
    const handled = await t.call({
      method: 'PUT',
      url: `/api/${A1}/Warn`,
      token: users.operator,
      payload: { Id: added.Id, Comments: 'Pumped down' },
    });
    expect(handled.json<Body<WarnDto>>().data).toMatchObject({ State: 1, Active: 0 });
  });

  it('deletes alarms for those who manage devices only', async () => {
    const [b1] = (await list(users.admin, `&DeviceSn=${B1}`)).data;
    if (!b1) throw new Error('no alarm');
    const operator = await t.call({
      method: 'POST',
      url: '/api/Warn/WarnDelete',
      token: users.operator,
      payload: { Ids: [b1.Id] },
    });
    expect(operator.statusCode).toBe(403);
    const other = await t.call({
      method: 'POST',
      url: '/api/Warn/WarnDelete',
      token: users.otherAdmin,
      payload: { Ids: [b1.Id] },
    });
    expect(other.statusCode).toBe(404);
    const res = await t.call({ method: 'POST', url: '/api/Warn/WarnDelete', token: users.admin, payload: { Ids: [b1.Id] } });
    expect(res.statusCode).toBe(200);
    expect((await list(users.admin, `&DeviceSn=${B1}`)).count).toBe(0);
  });

  it('counts alarms by state, warn type, station and local day', async () => {
    const res = await t.json<WarnStatisticsDto>({
      method: 'GET',
      url: `/api/Warn/statistics?BeginTime=${String(t0 - DAY)}&EndTime=${String(t0 + 3 * DAY + 3600_000)}`,
      token: users.admin,
    });
    // A1 E101 and E201 (both cleared since), A2 A101, VIEW E101 (B1's was deleted; the manual one opened after the range).
    expect(res.data.Total).toBe(4);
    expect(res.data.ByState).toEqual({ Active: 2, Cleared: 2, Handled: 3, Unhandled: 1 });
    expect(res.data.ByType.map((x) => [x.TypeName, x.Count])).toEqual([
      ['Fault', 3],
      ['Alarm', 1],
    ]);
    expect(res.data.ByProject.map((x) => [x.ProjectName, x.Count])).toEqual([
      ['Station A', 3],
      ['Station V', 1],
    ]);
    // Days in the server's zone (UTC+8 by default): t0 is 10:00 local.
    expect(res.data.ByDay).toEqual([
      { Date: '2026-11-20', Count: 2 },
      { Date: '2026-11-21', Count: 1 },
      { Date: '2026-11-23', Count: 1 },
    ]);
    const bad = await t.call({
      method: 'GET',
      url: `/api/Warn/statistics?BeginTime=${String(t0)}&EndTime=${String(t0 - DAY)}`,
      token: users.admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual(['BeginTime']);
  });

  it('opens the offline alarm for a device silent past the time-out and clears it when the device is heard', async () => {
    const { online, leader } = t.app.live;
    // Offline alarms are a once-only job: on PostgreSQL only the job leader sweeps (live.start()
    // starts the leader in a served app; this test app is not served).
    await leader.start();
    const silentSince = Date.now() - 2 * 3600_000;
    await t.app.ctx.db.updateTable('devices').set({ online: 0, last_seen: silentSince }).where('device_sn', '=', A2).execute();
    // Not silent for long enough yet: nothing opens.
    await online.sweep(silentSince + 1000);
    const offline = () =>
      t.json<WarnDto[]>({ method: 'GET', url: `/api/${A2}/Warn?Active=1&Search=${OFFLINE_WARN_CODE}`, token: users.admin });
    expect((await offline()).count).toBe(0);
    await online.sweep(Date.now());
    const opened = (await offline()).data;
    expect(opened).toMatchObject([
      { Code: OFFLINE_WARN_CODE, Source: 'offline', Description: 'Device offline', TypeName: 'Offline' },
    ]);
    // A second sweep opens no second one.
    await online.sweep(Date.now());
    expect((await offline()).count).toBe(1);
    await online.touch(groupId, A2, Date.now());
    expect((await offline()).count).toBe(0);
    const kept = await t.json<WarnDto[]>({
      method: 'GET',
      url: `/api/${A2}/Warn?Search=${OFFLINE_WARN_CODE}`,
      token: users.admin,
    });
    expect(kept.data).toMatchObject([{ Active: 0, Source: 'offline' }]);
    expect(kept.data[0]?.ClearedAt).not.toBeNull();
  });
});
