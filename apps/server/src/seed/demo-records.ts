/**
 * Demo field records: each project's discharge standard (GB 18918-2002 1A and 1B) and Zhejiang's
 * rural standard as the group's own table, weekly laboratory samples of each station's first
 * device over six weeks (one over the NH3-N limit), a few repairs at different stages (one
 * overdue), and inspection checklists with their rounds (one station past its round).
 */
import type { Db } from '../db/database.ts';

const DAY = 86_400_000;
const CHECKLIST = ['格栅清理', '调节池液位', '污泥深度', '风机噪声与温度', '加药桶液位', '围栏与配电'];

/** A small deterministic wobble, so the samples differ without a random seed. */
const wobble = (i: number, spread: number) => ((Math.sin(i * 12.9898) + 1) / 2) * spread;
/** A value as a laboratory reports it: two decimals. */
const lab = (value: number) => Math.round(value * 100) / 100;

export async function seedDemoRecords(db: Db, groupId: number, now = Date.now()): Promise<void> {
  const sites = await db
    .selectFrom('projects as s')
    .innerJoin('projects as p', 'p.id', 's.parent_id')
    .select(['s.id as stationId', 's.name as station', 'p.id as projectId', 'p.name as project'])
    .where('s.group_id', '=', groupId)
    .where('s.project_type', '=', 1)
    .where('p.project_type', '=', 0)
    .orderBy('s.id')
    .execute();
  if (sites.length === 0) return;

  await db
    .insertInto('discharge_standards')
    .values({
      group_id: groupId,
      name: 'DB33/973-2021 一级',
      description: '浙江省农村生活污水处理设施水污染物排放标准，一级标准',
      cod: 60,
      bod5: null,
      nh3_n: 8,
      nh3_n_cold: 15,
      tn: 20,
      tp: 1,
      ss: 20,
      ph_min: 6,
      ph_max: 9,
      fc: null,
    })
    .execute();
  const projects = [...new Map(sites.map((s) => [s.projectId, s.project])).keys()];
  for (const [index, projectId] of projects.entries()) {
    await db
      .insertInto('station_standards')
      .values({ project_id: projectId, group_id: groupId, standard: index === 0 ? 'GB18918-1A' : 'GB18918-1B' })
      .execute();
  }

  const admin = await db
    .selectFrom('users')
    .select(['id', 'user_name'])
    .where('group_id', '=', groupId)
    .orderBy('id')
    .executeTakeFirst();
  for (const [s, site] of sites.entries()) {
    const device = await db
      .selectFrom('devices')
      .select('device_sn')
      .where('project_id', '=', site.stationId)
      .orderBy('id')
      .executeTakeFirst();
    const principal = await db
      .selectFrom('principals')
      .select(['id', 'name'])
      .where('parent_ref', '=', `project:${String(site.stationId)}`)
      .executeTakeFirst();
    if (!device) continue;

    // Weekly composite samples from the county laboratory; the first station's latest one fails NH3-N in the cold.
    for (let week = 6; week >= 1; week--) {
      const i = s * 10 + week;
      const failing = s === 0 && week === 1;
      await db
        .insertInto('device_inputs')
        .values({
          group_id: groupId,
          device_sn: device.device_sn,
          project_id: site.stationId,
          dt: now - week * 7 * DAY + 9 * 3_600_000,
          water_inflow: lab(80 + wobble(i, 60)),
          water_temp: lab(14 + wobble(i + 1, 6)),
          cod_in: lab(180 + wobble(i, 150)),
          cod_out: lab(22 + wobble(i + 2, 20)),
          bod5_in: lab(90 + wobble(i, 60)),
          bod5_out: lab(5 + wobble(i + 3, 4)),
          nh3_n_in: lab(24 + wobble(i, 14)),
          nh3_n_out: failing ? 9.2 : lab(1.2 + wobble(i + 4, 3)),
          tn_in: lab(34 + wobble(i, 14)),
          tn_out: lab(9 + wobble(i + 5, 5)),
          tp_in: lab(2.6 + wobble(i, 2)),
          tp_out: lab(0.18 + wobble(i + 6, 0.25)),
          ss_in: lab(120 + wobble(i, 110)),
          ss_out: lab(4 + wobble(i + 7, 5)),
          ph_in: lab(7.1 + wobble(i, 0.8)),
          ph_out: lab(7.2 + wobble(i + 8, 0.5)),
          fc_in: null,
          fc_out: lab(300 + wobble(i, 500)),
          sampler: principal?.name ?? '',
          laboratory: '安吉县环境监测站',
          remark: failing ? '降温后硝化不足，已加大曝气' : '',
          created_by: admin?.id ?? null,
          created_by_name: admin?.user_name ?? '',
          created_at: now - week * 7 * DAY + 10 * 3_600_000,
        })
        .execute();
    }

    await db
      .insertInto('poll_plans')
      .values({ project_id: site.stationId, group_id: groupId, items: JSON.stringify(CHECKLIST), interval_days: 7 })
      .execute();
    // Rounds every week; the last station's last round is eleven days old (overdue).
    const lastRound = s === sites.length - 1 ? 11 : 2 + (s % 4);
    for (const ago of [lastRound, lastRound + 7, lastRound + 14]) {
      const arrived = now - ago * DAY + 9 * 3_600_000;
      const issue = ago === lastRound && s % 3 === 1;
      const results = CHECKLIST.map((Item) => ({
        Item,
        Ok: !(issue && Item === '风机噪声与温度'),
        Value:
          Item === '污泥深度'
            ? `${(0.4 + wobble(s + ago, 0.4)).toFixed(2)} m`
            : issue && Item === '风机噪声与温度'
              ? '1#风机异响'
              : '',
      }));
      await db
        .insertInto('polls')
        .values({
          group_id: groupId,
          project_id: site.stationId,
          poll_title: '周巡检',
          poll_content: '',
          results: JSON.stringify(results),
          issues: results.filter((r) => !r.Ok).length,
          arrived_at: arrived,
          left_at: arrived + 40 * 60_000,
          created_by: admin?.id ?? null,
          inspector: principal?.name ?? '',
          created_at: arrived + 40 * 60_000,
        })
        .execute();
    }

    if (s > 2 || !principal) continue;
    const repair = [
      {
        repair_title: '1#提升泵过载跳闸',
        fault_code: 'E101',
        state: 'verified',
        parts: '热继电器 LR2-D1314',
        cost: 180,
        resolution: '更换热继电器，清理叶轮缠绕物',
        created: 20,
        due: 17,
      },
      {
        repair_title: '1#风机异响',
        fault_code: 'E201',
        state: 'in_progress',
        parts: '',
        cost: null,
        resolution: '',
        created: 3,
        due: 4,
      },
      { repair_title: '格栅堵塞', fault_code: '', state: 'assigned', parts: '', cost: null, resolution: '', created: 6, due: 2 },
    ][s];
    if (!repair) continue;
    const created = now - repair.created * DAY;
    await db
      .insertInto('repairs')
      .values({
        group_id: groupId,
        project_id: site.stationId,
        device_sn: device.device_sn,
        repair_title: repair.repair_title,
        repair_content: '',
        fault_code: repair.fault_code,
        state: repair.state,
        assignee_id: principal.id,
        assignee_name: principal.name,
        due_at: created + repair.due * DAY,
        parts: repair.parts,
        cost: repair.cost,
        resolution: repair.resolution,
        warn_id: null,
        reported_by: admin?.id ?? null,
        reported_by_name: admin?.user_name ?? '',
        created_at: created,
        updated_at: created + DAY,
        assigned_at: created + 3_600_000,
        started_at: repair.state === 'assigned' ? null : created + DAY,
        done_at: repair.state === 'verified' ? created + 2 * DAY : null,
        verified_at: repair.state === 'verified' ? created + 3 * DAY : null,
      })
      .execute();
  }
}
