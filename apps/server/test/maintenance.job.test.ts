/**
 * Maintenance by run hours: a type's service interval names a run switch (a boolean data point;
 * other points are refused, and only those who manage the system set it); the job counts the
 * device's time with the switch on from its history and opens one repair when the hours since the
 * last service reach the interval, however often (or how concurrently) it runs; once that repair
 * is verified the count starts again, and the next interval opens the next repair.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepairDto } from '@sluice/shared/field-records.schema';
import type { TypeMaintenanceDto } from '@sluice/shared/device-type.schema';
import { ensureRawPartitions } from '../src/db/telemetry-partitions.ts';
import { TelemetryWriteRepository, type BatchPoint } from '../src/modules/telemetry/telemetry-write.repository.ts';
import { createTestApp, databaseKinds, fieldsOf, type Body, type TestApp, type Users } from './harness.ts';
import { buildSites, buildType } from './factories.ts';

const SN = 'SLM000000001';
const H = 3_600_000;

describe.each(databaseKinds)('maintenance by run hours on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let g: number;
  let typeId: number;
  let runId: number;
  let levelId: number;
  let writer: TelemetryWriteRepository;
  const start = Date.now() - 20 * H;

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await t.signInUsers();
    const { db, dialect } = t.app.ctx;
    g = (await db.selectFrom('users').select('group_id').where('account', '=', 'admin').executeTakeFirstOrThrow()).group_id;
    const type = await buildType(db, {
      groupId: g,
      points: [
        { key: 'BlowerMRun', type: 'boolean' },
        { key: 'BlowerMLevel', unit: 'm' },
      ],
    });
    typeId = type.id;
    [runId = 0, levelId = 0] = type.pointIds;
    await buildSites(t.app.ctx, {
      groupId: g,
      tree: { projects: [{ name: 'Project M', stations: [{ name: 'Station M', devices: [{ sn: SN, typeId }] }] }] },
    });
    if (dialect === 'postgres') await ensureRawPartitions(db, start, 1, 1);
    writer = new TelemetryWriteRepository(db, dialect, t.app.live.offsetMinutes);
  });

  afterAll(async () => {
    await t.close();
  });

  /** The blower runs `hours` from `from` (a reading each half hour), then stops. */
  const run = async (from: number, hours: number) => {
    const points: BatchPoint[] = [];
    for (let i = 0; i < hours * 2; i += 1)
      points.push({ groupId: g, deviceSn: SN, key: 'BlowerMRun', defined: true, ts: from + i * 0.5 * H, num: 1, txt: null });
    points.push({ groupId: g, deviceSn: SN, key: 'BlowerMRun', defined: true, ts: from + hours * H, num: 0, txt: null });
    await writer.commit(points, []);
  };
  const repairs = async () =>
    (await t.json<RepairDto[]>({ method: 'GET', url: `/api/GetRepairPageList?DeviceSn=${SN}&PageSize=50`, token: users.admin }))
      .data;

  it('takes a run switch as the interval’s counter, refusing another point and a user who does not manage types', async () => {
    const url = `/api/type/${String(typeId)}/TypeMaintenance`;
    const notSwitch = await t.call({
      method: 'POST',
      url,
      token: users.admin,
      payload: { DataDefineId: levelId, Name: 'Blower service', IntervalHours: 2 },
      lang: 'zh-CN',
    });
    expect(notSwitch.statusCode).toBe(400);
    expect(fieldsOf(notSwitch)).toEqual(['DataDefineId']);
    expect(notSwitch.json<Body<null>>().message).toContain('请选择运行开关');
    expect(
      fieldsOf(
        await t.call({ method: 'POST', url, token: users.admin, payload: { DataDefineId: runId, Name: 'x', IntervalHours: 0 } }),
      ),
    ).toEqual(['IntervalHours']);
    const refused = await t.call({
      method: 'POST',
      url,
      token: users.operator,
      payload: { DataDefineId: runId, Name: 'Blower service', IntervalHours: 2 },
    });
    expect(refused.statusCode).toBe(403);
    const made = await t.call({
      method: 'POST',
      url,
      token: users.admin,
      payload: { DataDefineId: runId, Name: 'Blower service', IntervalHours: 2 },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json<Body<TypeMaintenanceDto>>().data).toMatchObject({
      Key: 'BlowerMRun',
      Name: 'Blower service',
      IntervalHours: 2,
    });
  });

  it('opens one repair when the run hours pass the interval, however often the job runs, and the next after a service', async () => {
    const job = t.app.live.maintenance;
    // 1.5 hours of running: not due.
    await run(start, 1.5);
    expect((await job.run(start + 3 * H)).opened).toEqual([]);
    // Another hour (2.5 in all): due. Two runs at once, then a third, open one repair between them.
    await run(start + 4 * H, 1);
    const [a, b] = await Promise.all([job.run(start + 6 * H), job.run(start + 6 * H)]);
    const c = await job.run(start + 7 * H);
    expect([...a.opened, ...b.opened, ...c.opened]).toHaveLength(1);
    let list = await repairs();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      RepairTitle: 'Blower service',
      State: 'reported',
      DeviceSn: SN,
      ProjectName: 'Station M',
      RepairContent: '2 h / 2 h',
    });
    expect(list[0]?.MaintenanceId).toEqual(expect.any(Number));

    // More running while the repair is open opens nothing more.
    await run(start + 8 * H, 2);
    expect((await job.run(start + 11 * H)).opened).toEqual([]);

    // The service is done and verified: counting starts again from the run time then (4.5 h).
    const id = list[0]?.Id ?? 0;
    await t.app.ctx.db
      .updateTable('repairs')
      .set({ state: 'verified', done_at: start + 11 * H })
      .where('id', '=', id)
      .execute();
    expect((await job.run(start + 12 * H)).closed).toBe(1);
    await run(start + 13 * H, 1);
    expect((await job.run(start + 15 * H)).opened).toEqual([]);
    await run(start + 15 * H, 1.5);
    const next = await job.run(start + 17 * H);
    expect(next.opened).toHaveLength(1);
    list = await repairs();
    expect(list.map((r) => r.State)).toEqual(['reported', 'verified']);
    expect(list[0]?.RepairContent).toBe('2 h / 2 h');
  });
});
