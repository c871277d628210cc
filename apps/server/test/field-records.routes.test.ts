/**
 * Field records through their calls: water-quality results judged against the station's
 * discharge standard (GB 18918-2002 classes and a group's own table), values outside physical
 * sense refused naming the field in both languages, repairs through their workflow (and refused
 * moves), an alarm turned into a repair, inspection rounds and their schedule, photos. Nothing of
 * another tenant or an unreached station is seen or changed; a user without the operates is refused.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DeviceInputDto,
  PollDto,
  PollDueDto,
  RepairDto,
  StationCompliance,
  StationStandardDto,
} from '@sluice/shared/field-records.schema';
import { createTestApp, databaseKinds, fieldsOf, PNG, type Body, type TestApp, type Users } from './harness.ts';
import { buildPrincipal, buildRole, buildSites, buildUser, buildWarnCode, buildWarnType, defaultRole } from './factories.ts';
import { multipartWithFields } from './config-api.ts';

const A1 = 'SLR000000001';
const B1 = 'SLR000000002';
const DAY = 86_400_000;

describe.each(databaseKinds)('field records on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let groupId: number;
  let stationA: number;
  let stationB: number;
  let projectA: number;
  let principal: number;
  let strangerPrincipal: number;
  let viewer: string;
  let outsider: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    groupId = (await db.selectFrom('users').select('group_id').where('account', '=', 'admin').executeTakeFirstOrThrow()).group_id;
    const operatorRole = await defaultRole(db, groupId, 'Operator');
    // The operator manages project A; project B is beyond its reach.
    const a = await buildSites(t.app.ctx, {
      groupId,
      tree: { projects: [{ name: 'Project A', stations: [{ name: 'Station A', devices: [{ sn: A1 }] }] }] },
      roles: [{ roleId: operatorRole, operate: 0 }],
    });
    const b = await buildSites(t.app.ctx, {
      groupId,
      tree: { projects: [{ name: 'Project B', stations: [{ name: 'Station B', devices: [{ sn: B1 }] }] }] },
    });
    stationA = a.id('Station A');
    projectA = a.id('Project A');
    stationB = b.id('Station B');
    principal = await buildPrincipal(db, { groupId, projectId: stationA, name: 'Wang Wei' });
    strangerPrincipal = await buildPrincipal(db, { groupId, projectId: stationB, name: 'Li Na' });
    // A reader holds records.view only; an outsider holds no records operate.
    const readRole = await buildRole(db, { groupId, operates: ['records.view', 'device.view'] });
    const noneRole = await buildRole(db, { groupId, operates: ['device.view'] });
    for (const role of [readRole, noneRole])
      await db.insertInto('role_projects').values({ role_id: role, project_id: projectA, operate: 0 }).execute();
    const reader = await buildUser(db, { groupId, roles: [readRole] });
    const none = await buildUser(db, { groupId, roles: [noneRole] });
    viewer = await t.login(reader.account, reader.password);
    outsider = await t.login(none.account, none.password);
  });

  afterAll(async () => {
    await t.close();
  });

  const setStandard = (projectId: number, Standard: string, token = users.admin) =>
    t.call({ method: 'PUT', url: `/api/${String(groupId)}/StationStandard/${String(projectId)}`, token, payload: { Standard } });
  const addInput = (sn: string, payload: Record<string, unknown>, token = users.operator, lang?: string) =>
    t.call({ method: 'POST', url: `/api/${String(groupId)}/${sn}/DeviceInput`, token, payload, ...(lang ? { lang } : {}) });

  it('judges a result against the station’s GB 18918-2002 class, the cold NH3-N limit included', async () => {
    // The project holds class 1A; the station inherits it.
    expect((await setStandard(projectA, 'GB18918-1A')).statusCode).toBe(200);
    const held = await t.json<StationStandardDto>({
      method: 'GET',
      url: `/api/${String(groupId)}/StationStandard/${String(stationA)}`,
      token: users.operator,
    });
    expect(held.data).toMatchObject({ Standard: 'GB18918-1A', Inherited: true, Name: 'GB 18918-2002 1A' });
    expect(held.data.Limits?.COD).toBe(50);

    const failing = await addInput(A1, {
      Dt: Date.now() - DAY,
      COD_In: 260,
      COD_Out: 55,
      NH3_N_Out: 6,
      WaterTemp: 10,
      TP_Out: 0.0004,
      TP_Unit: 'g/L',
      PH_Out: 7.2,
      Sampler: 'Zhang San',
      Laboratory: 'County lab',
    });
    expect(failing.statusCode).toBe(201);
    const dto = failing.json<Body<DeviceInputDto>>().data;
    // COD 55 > 50 fails; NH3-N 6 passes the cold limit 8 at 10 °C; TP 0.4 mg/L passes 0.5.
    expect(dto.Compliance).toMatchObject({ COD: false, NH3_N: true, TP: true, PH: true, BOD5: null });
    expect(dto).toMatchObject({
      Compliant: false,
      Standard: 'GB 18918-2002 1A',
      CreatedBy: 'operator',
      ProjectName: 'Station A',
    });

    // At 20 °C the plain limit 5 holds: NH3-N 6 fails.
    const warm = await addInput(A1, { Dt: Date.now() - 2 * DAY, NH3_N_Out: 6, WaterTemp: 20, COD_Out: 30 });
    expect(warm.json<Body<DeviceInputDto>>().data.Compliance).toMatchObject({ NH3_N: false, COD: true });

    // Class 1B at the station itself: COD 55 passes.
    await setStandard(stationA, 'GB18918-1B');
    const list = await t.json<DeviceInputDto[]>({
      method: 'GET',
      url: `/api/${String(groupId)}/${A1}/DeviceInput`,
      token: users.operator,
    });
    expect(list.data.map((r) => r.Compliance.COD)).toEqual([true, true]);
    expect(list.data[0]?.Standard).toBe('GB 18918-2002 1B');
    await setStandard(stationA, '');
  });

  it('refuses values outside physical sense, naming the field in the caller’s language', async () => {
    const before = await t.json<DeviceInputDto[]>({
      method: 'GET',
      url: `/api/${String(groupId)}/${A1}/DeviceInput`,
      token: users.admin,
    });
    const ph = await addInput(A1, { Dt: Date.now(), PH_Out: 15 });
    expect(ph.statusCode).toBe(400);
    expect(fieldsOf(ph)).toEqual(['PH_Out']);
    expect(JSON.stringify(ph.json())).toContain('pH must lie between 0 and 14');
    const zh = await addInput(A1, { Dt: Date.now(), COD_In: -3 }, users.operator, 'zh-CN');
    expect(fieldsOf(zh)).toEqual(['COD_In']);
    expect(JSON.stringify(zh.json())).toContain('不能为负数');
    const unit = await addInput(A1, { Dt: Date.now(), TP_Out: 1, TP_Unit: 'kg' });
    expect(fieldsOf(unit)).toEqual(['TP_Unit']);
    const future = await addInput(A1, { Dt: Date.now() + 3 * DAY, COD_Out: 20 });
    expect(fieldsOf(future)).toEqual(['Dt']);
    const badTime = await addInput(A1, { Dt: 'yesterday', COD_Out: 20 });
    expect(fieldsOf(badTime)).toEqual(['Dt']);
    const after = await t.json<DeviceInputDto[]>({
      method: 'GET',
      url: `/api/${String(groupId)}/${A1}/DeviceInput`,
      token: users.admin,
    });
    expect(after.data.length).toBe(before.data.length);
  });

  it('lists by time range and station, answers an empty list when there is none, and deletes', async () => {
    const url = `/api/${String(groupId)}/${A1}/DeviceInput`;
    const recent = await t.json<DeviceInputDto[]>({
      method: 'GET',
      url: `${url}?begin=${String(Date.now() - DAY - 60_000)}`,
      token: users.operator,
    });
    expect(recent.data.length).toBe(1);
    const none = await t.json<DeviceInputDto[]>({
      method: 'GET',
      url: `${url}?begin=2020-01-01&end=2020-01-31`,
      token: users.operator,
    });
    expect(none).toMatchObject({ success: true, data: [] });
    const paged = await t.json<DeviceInputDto[]>({
      method: 'GET',
      url: `/api/${String(groupId)}/DeviceInput?ProjectId=${String(projectA)}&PageSize=1`,
      token: users.operator,
    });
    expect(paged.count).toBe(2);
    expect(paged.data.length).toBe(1);
    // Only the operator may not delete (records.manage); the administrator may.
    const id = recent.data[0]?.Id ?? 0;
    expect((await t.call({ method: 'DELETE', url: `${url}/${String(id)}`, token: users.operator })).statusCode).toBe(403);
    expect((await t.call({ method: 'DELETE', url: `${url}/${String(id)}`, token: users.admin })).statusCode).toBe(200);
    const left = await t.json<DeviceInputDto[]>({ method: 'GET', url, token: users.admin });
    expect(left.data.map((r) => r.Id)).not.toContain(id);
  });

  it('refuses other tenants, unreached stations and users without the operates', async () => {
    expect((await addInput(B1, { Dt: Date.now(), COD_Out: 20 })).statusCode).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `/api/${String(groupId)}/${A1}/DeviceInput`, token: users.otherAdmin })).statusCode,
    ).toBeGreaterThanOrEqual(403);
    expect((await addInput(A1, { Dt: Date.now(), COD_Out: 20 }, viewer)).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: `/api/${String(groupId)}/${A1}/DeviceInput`, token: viewer })).statusCode).toBe(
      200,
    );
    expect((await t.call({ method: 'GET', url: `/api/${String(groupId)}/${A1}/DeviceInput`, token: outsider })).statusCode).toBe(
      403,
    );
    expect((await t.call({ method: 'GET', url: '/api/GetRepairPageList', token: outsider })).statusCode).toBe(403);
    expect((await setStandard(stationA, 'GB18918-2', users.operator)).statusCode).toBe(403);
    expect((await setStandard(stationA, 'GB18918-4')).statusCode).toBe(400);
    const theirs = await t.json<RepairDto[]>({ method: 'GET', url: '/api/GetRepairList', token: users.otherAdmin });
    expect(theirs.data).toEqual([]);
  });

  it('keeps a group’s own standard, judges by it, and refuses deleting it while a station holds it', async () => {
    const url = `/api/${String(groupId)}/DischargeStandard`;
    const bad = await t.call({
      method: 'POST',
      url,
      token: users.admin,
      payload: { Name: 'Zhejiang rural 1', PH_Min: 9, PH_Max: 6 },
    });
    expect(fieldsOf(bad)).toEqual(['PH_Max']);
    const made = await t.call({
      method: 'POST',
      url,
      token: users.admin,
      payload: { Name: 'Zhejiang rural 1', COD: 60, NH3_N: 8, TP: 1, SS: 20, PH_Min: 6, PH_Max: 9 },
    });
    expect(made.statusCode).toBe(201);
    const id = made.json<Body<{ Id: number }>>().data.Id;
    expect((await setStandard(stationA, `custom:${String(id)}`)).statusCode).toBe(200);
    const r = await addInput(A1, { Dt: Date.now() - 3 * DAY, COD_Out: 58, TN_Out: 40 });
    expect(r.json<Body<DeviceInputDto>>().data).toMatchObject({
      Standard: 'Zhejiang rural 1',
      Compliant: true,
      Compliance: { COD: true, TN: null },
    });
    const removing = await t.call({ method: 'DELETE', url: `${url}/${String(id)}`, token: users.admin });
    expect(removing.statusCode).toBe(409);
    await setStandard(stationA, '');
    expect((await t.call({ method: 'DELETE', url: `${url}/${String(id)}`, token: users.admin })).statusCode).toBe(200);
    // The other tenant cannot give its station this group's standard.
    expect((await setStandard(stationA, `custom:${String(id)}`)).statusCode).toBe(400);
  });

  const act = (id: number, payload: Record<string, unknown>, token = users.operator) =>
    t.call({ method: 'POST', url: `/api/Repair/${String(id)}/Action`, token, payload });
  const stateOf = (res: LightMyRequestResponse) => res.json<Body<RepairDto>>().data.State;

  it('takes a repair from reported through assigned, in progress and done to verified, rejected back once', async () => {
    const added = await t.call({
      method: 'POST',
      url: '/api/RepairAdd',
      token: users.operator,
      payload: { DeviceSn: A1, RepairTitle: 'Blower 1 trips', FaultCode: 'E201', DueAt: Date.now() + 2 * DAY },
    });
    expect(added.statusCode).toBe(201);
    const repair = added.json<Body<RepairDto>>().data;
    expect(repair).toMatchObject({
      State: 'reported',
      ProjectId: stationA,
      DeviceSn: A1,
      ReportedBy: 'operator',
      Overdue: false,
    });
    const id = repair.Id;

    // The operator may not assign; the assignee must be a principal of the station.
    expect((await act(id, { Action: 'assign', AssigneeId: principal })).statusCode).toBe(403);
    expect(fieldsOf(await act(id, { Action: 'assign', AssigneeId: strangerPrincipal }, users.admin))).toEqual(['AssigneeId']);
    expect(fieldsOf(await act(id, { Action: 'assign' }, users.admin))).toEqual(['AssigneeId']);
    // Nothing can be finished before it is started.
    const early = await act(id, { Action: 'finish' });
    expect(early.statusCode).toBe(409);
    expect(fieldsOf(early)).toEqual(['Action']);
    // The refusal names the state and the move in the caller's words, not their codes.
    expect(early.json<Body<null>>().message).toContain('This repair is “Reported”: it cannot be finished now');

    const assigned = await act(id, { Action: 'assign', AssigneeId: principal }, users.admin);
    expect(assigned.json<Body<RepairDto>>().data).toMatchObject({ State: 'assigned', AssigneeName: 'Wang Wei' });
    expect(stateOf(await act(id, { Action: 'start' }))).toBe('in_progress');
    expect(stateOf(await act(id, { Action: 'finish', Note: 'Replaced the contactor' }))).toBe('done');
    const rejected = await act(id, { Action: 'reject', Note: 'Still trips at night' }, users.admin);
    expect(rejected.json<Body<RepairDto>>().data).toMatchObject({
      State: 'assigned',
      RejectNote: 'Still trips at night',
      DoneAt: null,
    });
    expect(stateOf(await act(id, { Action: 'start' }))).toBe('in_progress');
    expect(stateOf(await act(id, { Action: 'finish', Note: 'Replaced the thermal relay' }))).toBe('done');
    expect((await act(id, { Action: 'verify' })).statusCode).toBe(403);
    const verified = await act(id, { Action: 'verify' }, users.admin);
    expect(verified.json<Body<RepairDto>>().data).toMatchObject({ State: 'verified', Resolution: 'Replaced the thermal relay' });
    const late = await t.call({
      method: 'POST',
      url: `/api/Repair/${String(id)}/Action`,
      token: users.operator,
      payload: { Action: 'start' },
      lang: 'zh-CN',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json<Body<null>>().message).toContain('维修单当前为“已验收”，不能开始维修');

    const edited = await t.call({
      method: 'PUT',
      url: '/api/Repair',
      token: users.operator,
      payload: { Id: id, Parts: 'Thermal relay LR2', Cost: 180 },
    });
    expect(edited.json<Body<RepairDto>>().data).toMatchObject({ Parts: 'Thermal relay LR2', Cost: 180 });
    expect(
      fieldsOf(await t.call({ method: 'PUT', url: '/api/Repair', token: users.operator, payload: { Id: id, Cost: -1 } })),
    ).toEqual(['Cost']);
  });

  it('makes overdue repairs stand out and lists them by filter', async () => {
    const late = await t.call({
      method: 'POST',
      url: '/api/RepairAdd',
      token: users.admin,
      payload: { ProjectId: stationA, RepairTitle: 'Screen clogged', AssigneeId: principal, DueAt: Date.now() - DAY },
    });
    expect(late.json<Body<RepairDto>>().data).toMatchObject({ State: 'assigned', Overdue: true });
    const overdue = await t.json<RepairDto[]>({ method: 'GET', url: '/api/GetRepairPageList?Overdue=1', token: users.operator });
    expect(overdue.data.map((r) => r.RepairTitle)).toEqual(['Screen clogged']);
    const searched = await t.json<RepairDto[]>({
      method: 'GET',
      url: '/api/GetRepairPageList?Search=blower',
      token: users.operator,
    });
    expect(searched.data.map((r) => r.RepairTitle)).toEqual(['Blower 1 trips']);
    expect(
      fieldsOf(await t.call({ method: 'POST', url: '/api/RepairAdd', token: users.operator, payload: { RepairTitle: 'x' } })),
    ).toEqual(['ProjectId']);
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/RepairAdd',
          token: users.operator,
          payload: { ProjectId: stationB, RepairTitle: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    // An operator may not hand a repair out while reporting it.
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/RepairAdd',
          token: users.operator,
          payload: { ProjectId: stationA, RepairTitle: 'x', AssigneeId: principal },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('turns an alarm into a repair of its device in one call, once, keeping the link', async () => {
    const faultType = await buildWarnType(t.app.ctx.db, { groupId, name: 'Fault' });
    await buildWarnCode(t.app.ctx.db, { groupId, warnTypeId: faultType, code: 'E101', description: 'Lift pump 1 fault' });
    const device = await t.app.live.directory.device(A1);
    if (!device) throw new Error('device unknown');
    await t.app.live.alarms.setActive(device, ['E101'], Date.now() - 60_000);
    const warns = await t.json<{ Id: number; Code: string }[]>({
      method: 'GET',
      url: `/api/Warn?PageSize=10&DeviceSn=${A1}`,
      token: users.operator,
    });
    const warnId = warns.data.find((w) => w.Code === 'E101')?.Id ?? 0;
    const made = await t.call({
      method: 'POST',
      url: '/api/Repair/FromWarn',
      token: users.operator,
      payload: { WarnId: warnId },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json<Body<RepairDto>>().data).toMatchObject({
      WarnId: warnId,
      FaultCode: 'E101',
      RepairTitle: 'E101 Lift pump 1 fault',
      DeviceSn: A1,
      ProjectId: stationA,
      State: 'reported',
    });
    const again = await t.call({
      method: 'POST',
      url: '/api/Repair/FromWarn',
      token: users.operator,
      payload: { WarnId: warnId },
    });
    expect(again.statusCode).toBe(409);
    expect(fieldsOf(again)).toEqual(['WarnId']);
    expect(
      (await t.call({ method: 'POST', url: '/api/Repair/FromWarn', token: users.otherAdmin, payload: { WarnId: warnId } }))
        .statusCode,
    ).toBe(404);
  });

  it('takes before and after photos on a repair and deletes them', async () => {
    const list = await t.json<RepairDto[]>({ method: 'GET', url: '/api/GetRepairList', token: users.operator });
    const id = list.data[0]?.Id ?? 0;
    const upload = multipartWithFields({}, PNG, 'after.png');
    const res = await t.call({
      method: 'POST',
      url: `/api/${String(groupId)}/RecordPhoto/repair/${String(id)}?Stage=after`,
      token: users.operator,
      payload: upload.payload,
      headers: upload.headers,
    });
    expect(res.statusCode).toBe(200);
    const photo = res.json<Body<{ Id: number; Stage: string; url: string }>>().data;
    expect(photo.Stage).toBe('after');
    const one = await t.json<RepairDto[]>({ method: 'GET', url: '/api/GetRepairList', token: users.operator });
    expect(one.data.find((r) => r.Id === id)?.Photos.map((p) => p.Stage)).toEqual(['after']);
    expect((await t.call({ method: 'GET', url: photo.url })).statusCode).toBe(200);
    const theirs = multipartWithFields({}, PNG, 'x.png');
    expect(
      (
        await t.call({
          method: 'POST',
          url: `/api/${String(users.other.groupId)}/RecordPhoto/repair/${String(id)}`,
          token: users.otherAdmin,
          payload: theirs.payload,
          headers: theirs.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/${String(groupId)}/RecordPhoto/${String(photo.Id)}`, token: users.operator }))
        .statusCode,
    ).toBe(200);
  });

  it('records inspection rounds against a station’s checklist and shows a missed round as overdue', async () => {
    const plan = await t.call({
      method: 'PUT',
      url: `/api/${String(groupId)}/PollPlan/${String(stationA)}`,
      token: users.admin,
      payload: { Items: ['Grid cleaned', 'Sludge depth', 'Blower noise'], IntervalDays: 7 },
    });
    expect(plan.statusCode).toBe(200);
    expect(
      (
        await t.call({
          method: 'PUT',
          url: `/api/${String(groupId)}/PollPlan/${String(stationA)}`,
          token: users.operator,
          payload: { Items: [], IntervalDays: 7 },
        })
      ).statusCode,
    ).toBe(403);
    const arrived = Date.now() - 10 * DAY;
    const round = await t.call({
      method: 'POST',
      url: '/api/PollAdd',
      token: users.operator,
      payload: {
        ProjectId: stationA,
        PollTitle: 'Weekly round',
        ArrivedAt: arrived,
        LeftAt: arrived + 45 * 60_000,
        Results: [
          { Item: 'Grid cleaned', Ok: true },
          { Item: 'Sludge depth', Ok: true, Value: '0.6 m' },
          { Item: 'Blower noise', Ok: false, Value: 'Bearing whine' },
        ],
        Chemicals: [{ Chemical: 'PAC', Quantity: '25', Unit: 'kg' }],
      },
    });
    expect(round.statusCode).toBe(201);
    expect(round.json<Body<PollDto>>().data).toMatchObject({
      Issues: 1,
      Inspector: 'operator',
      ProjectName: 'Station A',
      Chemicals: [{ Chemical: 'PAC', Quantity: 25, Unit: 'kg' }],
    });
    // A chemical of no quantity or an unknown unit is refused on its field, in the caller's language.
    const noDose = await t.call({
      method: 'POST',
      url: '/api/PollAdd',
      token: users.operator,
      lang: 'zh-CN',
      payload: {
        ProjectId: stationA,
        PollTitle: 'x',
        ArrivedAt: arrived,
        Chemicals: [
          { Chemical: 'PAC', Quantity: 0, Unit: 'kg' },
          { Chemical: 'PAM', Quantity: 2, Unit: 'bags' },
        ],
      },
    });
    expect(fieldsOf(noDose)).toEqual(['Chemicals.0.Quantity', 'Chemicals.1.Unit']);
    expect(noDose.json<Body<null>>().message).toContain('数量须大于 0');
    const due = await t.json<PollDueDto[]>({ method: 'GET', url: '/api/PollDue', token: users.operator });
    expect(due.data).toEqual([
      expect.objectContaining({ ProjectId: stationA, LastAt: arrived, DueAt: arrived + 7 * DAY, Overdue: true }),
    ]);
    const leftBefore = await t.call({
      method: 'POST',
      url: '/api/PollAdd',
      token: users.operator,
      payload: { ProjectId: stationA, PollTitle: 'x', ArrivedAt: arrived, LeftAt: arrived - 1000 },
    });
    expect(fieldsOf(leftBefore)).toEqual(['LeftAt']);
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/PollAdd',
          token: users.operator,
          payload: { ProjectId: stationB, PollTitle: 'x', ArrivedAt: arrived },
        })
      ).statusCode,
    ).toBe(404);
    const rounds = await t.json<PollDto[]>({
      method: 'GET',
      url: `/api/GetPollPageList?ProjectId=${String(projectA)}`,
      token: users.operator,
    });
    expect(rounds.count).toBe(1);
    const all = await t.json<PollDto[]>({ method: 'GET', url: '/api/GetPollList', token: users.otherAdmin });
    expect(all.data).toEqual([]);
    const id = rounds.data[0]?.Id ?? 0;
    expect((await t.call({ method: 'DELETE', url: `/api/Poll/${String(id)}`, token: users.operator })).statusCode).toBe(403);
    expect((await t.call({ method: 'DELETE', url: `/api/Poll/${String(id)}`, token: users.admin })).statusCode).toBe(200);
  });

  it('reports a station’s month: laboratory compliance, alarms by type, repairs and rounds, computed by hand', async () => {
    const db = t.app.ctx.db;
    const r = await buildSites(t.app.ctx, {
      groupId,
      tree: { projects: [{ name: 'Project R', stations: [{ name: 'Station R', devices: [{ sn: 'SLR000000009' }] }] }] },
    });
    const station = r.id('Station R');
    await setStandard(station, 'GB18918-1A');
    const at = (day: string) => Date.parse(`${day}T04:00:00Z`);
    // October: COD 40 and 60 (over 50), NH3-N 3 and 4; November's sample is not October's.
    for (const [day, cod, nh3] of [
      ['2026-10-05', 40, 3],
      ['2026-10-12', 60, 4],
      ['2026-11-02', 10, 1],
    ] as const) {
      expect(
        (
          await addInput(
            'SLR000000009',
            // TP 0.0003 g/L is 0.3 mg/L.
            { Dt: at(day), COD_Out: cod, NH3_N_Out: nh3, TP_Out: 0.0003, TP_Unit: 'g/L', Sampler: `Sampler ${day}` },
            users.admin,
          )
        ).statusCode,
      ).toBe(201);
    }
    const base = { group_id: groupId, project_id: station, device_sn: 'SLR000000009', repair_title: 'x', state: 'verified' };
    await db
      .insertInto('repairs')
      .values([
        {
          ...base,
          created_at: at('2026-10-03'),
          updated_at: 0,
          done_at: at('2026-10-04'),
          verified_at: at('2026-10-05'),
          due_at: null,
          assignee_id: null,
          cost: null,
          warn_id: null,
          reported_by: null,
          assigned_at: null,
          started_at: null,
        },
        {
          ...base,
          state: 'assigned',
          created_at: at('2026-10-20'),
          updated_at: 0,
          done_at: null,
          verified_at: null,
          due_at: at('2026-10-25'),
          assignee_id: null,
          cost: null,
          warn_id: null,
          reported_by: null,
          assigned_at: null,
          started_at: null,
        },
      ])
      .execute();
    await db
      .insertInto('polls')
      .values([
        {
          group_id: groupId,
          project_id: station,
          poll_title: 'a',
          issues: 1,
          chemicals: JSON.stringify([
            { Chemical: 'PAC', Quantity: 25, Unit: 'kg' },
            { Chemical: 'NaClO', Quantity: 10, Unit: 'L' },
          ]),
          arrived_at: at('2026-10-07'),
          left_at: null,
          created_by: null,
          created_at: 0,
        },
        {
          group_id: groupId,
          project_id: station,
          poll_title: 'b',
          issues: 0,
          chemicals: JSON.stringify([{ Chemical: 'pac', Quantity: 12.5, Unit: 'kg' }]),
          arrived_at: at('2026-10-14'),
          left_at: null,
          created_by: null,
          created_at: 0,
        },
        {
          group_id: groupId,
          project_id: station,
          poll_title: 'c',
          issues: 3,
          chemicals: JSON.stringify([{ Chemical: 'PAC', Quantity: 100, Unit: 'kg' }]),
          arrived_at: at('2026-09-30'),
          left_at: null,
          created_by: null,
          created_at: 0,
        },
      ])
      .execute();
    const fault = await buildWarnType(db, { groupId, name: 'Pump fault' });
    const warn = {
      group_id: groupId,
      device_sn: 'SLR000000009',
      project_id: station,
      code: 'E101',
      warn_type_id: fault,
      cleared_at: null,
    };
    await db
      .insertInto('warns')
      .values([
        { ...warn, dt: at('2026-10-08'), state: 1, handled_at: at('2026-10-08') + 30 * 60_000, handled_by: null },
        { ...warn, dt: at('2026-10-09'), state: 0, handled_at: null, handled_by: null },
      ])
      .execute();

    const report = await t.json<Record<string, unknown>>({
      method: 'GET',
      url: `/api/${String(groupId)}/StationReport?ProjectId=${String(station)}&Month=2026-10`,
      token: users.admin,
    });
    expect(report.data).toMatchObject({
      ProjectName: 'Station R',
      Month: '2026-10',
      Standard: 'GB 18918-2002 1A',
      Operation: { TreatedM3: null, EnergyKWh: null, KWhPerM3: null },
      Lab: { Samples: 2, Judged: 2, Compliant: 1, Rate: 0.5 },
      Alarms: [{ TypeName: 'Pump fault', Count: 2, Handled: 1, AvgMinutesToHandle: 30 }],
      Repairs: { Reported: 2, Done: 1, Verified: 1, OverdueOpen: 1 },
      Inspections: { Rounds: 2, Issues: 1 },
    });
    const lab = report.data.Lab as { Params: { Param: string; Avg: number | null; Max: number | null; Over: number }[] };
    expect(lab.Params.find((p) => p.Param === 'COD')).toMatchObject({ Avg: 50, Max: 60, Over: 1 });
    expect(lab.Params.find((p) => p.Param === 'NH3_N')).toMatchObject({ Avg: 3.5, Max: 4, Over: 0 });
    expect(lab.Params.find((p) => p.Param === 'TP')).toMatchObject({ Avg: 0.3, Max: 0.3, Over: 0 });
    // September's round is not October's; PAC by any spelling is one chemical (25 + 12.5 kg over two rounds).
    expect(report.data.Chemicals).toEqual([
      { Chemical: 'NaClO', Unit: 'L', Quantity: 10, PerM3: null, Rounds: 1 },
      { Chemical: 'PAC', Unit: 'kg', Quantity: 37.5, PerM3: null, Rounds: 2 },
    ]);
    expect(report.data.Samples).toEqual([
      expect.objectContaining({ Sampler: 'Sampler 2026-10-05', Over: [] }),
      expect.objectContaining({ Sampler: 'Sampler 2026-10-12', Over: ['COD'] }),
    ]);

    // The same month as an Excel workbook, in the caller's language, holding the samples.
    const xlsx = await t.call({
      method: 'GET',
      url: `/api/${String(groupId)}/StationReport?ProjectId=${String(station)}&Month=2026-10&Format=xlsx`,
      token: users.admin,
      lang: 'zh-CN',
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.rawPayload).buffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['汇总', '化验结果', '水样', '药剂', '在线监测', '告警']);
    const rowsOf = (name: string) => {
      const rows: unknown[][] = [];
      workbook.getWorksheet(name)?.eachRow((row) => {
        rows.push((row.values as unknown[]).slice(1));
      });
      return rows;
    };
    const summary = new Map(rowsOf('汇总').map(([k, v]) => [k, v]));
    expect(summary.get('项目或站点')).toBe('Station R');
    expect(summary.get('达标率（0–1）')).toBe(0.5);
    expect(summary.get('PAC 投加量（kg）')).toBe(37.5);
    expect(summary.get('巡检次数')).toBe(2);
    const samples = rowsOf('水样');
    expect(samples[0]?.slice(0, 5)).toEqual(['采样时间', '设备', '采样人', '化验单位', 'COD（mg/L）']);
    // Two October samples, times in the site's time (UTC+8 unless configured), numbers as numbers.
    expect(samples).toHaveLength(3);
    expect(samples[2]?.[2]).toBe('Sampler 2026-10-12');
    expect(samples[2]?.[4]).toBe(60);
    expect(samples[2]?.at(-1)).toBe('COD');
    expect(rowsOf('告警')[1]).toEqual(['Pump fault', 2, 1, 30]);

    // The month's compliance of the station, per parameter.
    const month = await t.json<StationCompliance[]>({
      method: 'GET',
      url: `/api/${String(groupId)}/MonthCompliance?ProjectId=${String(station)}&Month=2026-10`,
      token: users.admin,
    });
    expect(month.data).toHaveLength(1);
    expect(month.data[0]).toMatchObject({ ProjectName: 'Station R', Samples: 2, Judged: 2, Compliant: 1, Rate: 0.5 });
    expect(month.data[0]?.Params.find((p) => p.Param === 'COD')).toMatchObject({
      LabJudged: 2,
      LabCompliant: 1,
      LabRate: 0.5,
      OnlineDays: 0,
      OnlineRate: null,
    });
    expect(month.data[0]?.Params.find((p) => p.Param === 'BOD5')).toMatchObject({ LabJudged: 0, LabRate: null });
    // The operator does not reach project R: its stations are not listed, the station itself not found.
    const theirs = await t.json<StationCompliance[]>({
      method: 'GET',
      url: `/api/${String(groupId)}/MonthCompliance?Month=2026-10`,
      token: users.operator,
    });
    expect(theirs.data.map((c) => c.ProjectName)).toEqual(['Station A']);
    expect(
      (
        await t.call({
          method: 'GET',
          url: `/api/${String(groupId)}/MonthCompliance?ProjectId=${String(station)}&Month=2026-10`,
          token: users.operator,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `/api/${String(groupId)}/MonthCompliance?Month=2026-10`, token: outsider })).statusCode,
    ).toBe(403);
    const bad = await t.call({
      method: 'GET',
      url: `/api/${String(groupId)}/StationReport?ProjectId=${String(station)}&Month=2026-13`,
      token: users.admin,
    });
    expect(fieldsOf(bad)).toEqual(['Month']);
    // The operator does not reach project R.
    expect(
      (
        await t.call({
          method: 'GET',
          url: `/api/${String(groupId)}/StationReport?ProjectId=${String(station)}&Month=2026-10`,
          token: users.operator,
        })
      ).statusCode,
    ).toBe(404);
  });
});
