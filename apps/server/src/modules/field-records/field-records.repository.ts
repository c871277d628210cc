/**
 * Field records' SQL: water-quality results, discharge standards and the standard each station
 * holds, repairs, inspection checklists and rounds, and their photos. Scoped by the group, and
 * by the user's role-project grants through the record's station.
 */
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DeviceInputTable, DischargeStandardTable, PollTable, RepairTable } from '../../db/tables.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { nodeAndBelow } from '../alarms/alarms.repository.ts';
import { projectReachable, type ScopeMode } from '../sites/site-scope.ts';
import { imageUrl } from '../sites/projects.repository.ts';
import type { RecordKind, RecordPhotoDto } from '@sluice/shared/field-records.schema';
import { PROJECT_TYPE } from '@sluice/shared/project.schema';

export type InputRow = Selectable<DeviceInputTable> & { device_name: string | null; project_name: string | null };
export type RepairRow = Selectable<RepairTable> & { device_name: string | null; project_name: string | null };
export type PollRow = Selectable<PollTable> & { project_name: string | null };
export type StandardRow = Selectable<DischargeStandardTable>;

export interface RangeFilter {
  projectId?: number | undefined;
  deviceSn?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export interface RepairFilter extends RangeFilter {
  state?: string | undefined;
  /** Not done yet and due before this time. */
  dueBefore?: number | undefined;
  search?: string | undefined;
}

export interface Page {
  offset: number;
  limit: number;
}

export class FieldRecordsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  // Water-quality results ------------------------------------------------------------------

  private inputs(user: CurrentUser, mode: ScopeMode = 'read') {
    return this.db
      .selectFrom('device_inputs as i')
      .leftJoin('devices as d', 'd.device_sn', 'i.device_sn')
      .leftJoin('projects as p', 'p.id', 'i.project_id')
      .where('i.group_id', '=', user.groupId)
      .where(projectReachable(user, 'i.project_id', mode));
  }

  async inputPage(user: CurrentUser, filter: RangeFilter, page?: Page): Promise<{ rows: InputRow[]; count: number }> {
    let q = this.inputs(user);
    if (filter.deviceSn !== undefined) q = q.where('i.device_sn', '=', filter.deviceSn);
    if (filter.projectId !== undefined) q = q.where(nodeAndBelow('i.project_id', filter.projectId));
    if (filter.from !== undefined) q = q.where('i.dt', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('i.dt', '<', filter.to);
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    let rows = q
      .selectAll('i')
      .select(['d.device_name', 'p.name as project_name'])
      .orderBy('i.dt', 'desc')
      .orderBy('i.id', 'desc');
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    return { rows: await rows.execute(), count: count };
  }

  async input(user: CurrentUser, id: number, mode: ScopeMode = 'read'): Promise<InputRow | undefined> {
    return this.inputs(user, mode)
      .selectAll('i')
      .select(['d.device_name', 'p.name as project_name'])
      .where('i.id', '=', id)
      .executeTakeFirst();
  }

  async addInput(row: Insertable<DeviceInputTable>): Promise<number> {
    return (await this.db.insertInto('device_inputs').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateInput(groupId: number, id: number, row: Updateable<DeviceInputTable>): Promise<void> {
    if (Object.keys(row).length === 0) return;
    await this.db.updateTable('device_inputs').set(row).where('id', '=', id).where('group_id', '=', groupId).execute();
  }

  async removeInput(groupId: number, id: number): Promise<void> {
    await this.db.deleteFrom('device_inputs').where('id', '=', id).where('group_id', '=', groupId).execute();
  }

  // Standards ----------------------------------------------------------------------------

  /** The standard each of the projects holds, its own or else its parent's ('' when neither has one). */
  async standardsOf(groupId: number, projectIds: number[]): Promise<Map<number, { standard: string; inherited: boolean }>> {
    const found = new Map<number, { standard: string; inherited: boolean }>();
    const ids = [...new Set(projectIds)];
    if (ids.length === 0) return found;
    const rows = await this.db
      .selectFrom('projects as p')
      .leftJoin('station_standards as own', 'own.project_id', 'p.id')
      .leftJoin('station_standards as up', 'up.project_id', 'p.parent_id')
      .select(['p.id', 'own.standard as own', 'up.standard as up'])
      .where('p.group_id', '=', groupId)
      .where('p.id', 'in', ids)
      .execute();
    for (const r of rows) found.set(r.id, { standard: r.own ?? r.up ?? '', inherited: r.own === null && r.up !== null });
    return found;
  }

  async customStandards(groupId: number, ids: number[]): Promise<Map<number, StandardRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('discharge_standards')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  async setStandard(groupId: number, projectId: number, standard: string): Promise<void> {
    await this.db.deleteFrom('station_standards').where('project_id', '=', projectId).execute();
    if (standard !== '') {
      await this.db.insertInto('station_standards').values({ project_id: projectId, group_id: groupId, standard }).execute();
    }
  }

  /** How many stations hold the custom standard. */
  async standardUse(groupId: number, id: number): Promise<number> {
    const { count } = await this.db
      .selectFrom('station_standards')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('group_id', '=', groupId)
      .where('standard', '=', `custom:${String(id)}`)
      .executeTakeFirstOrThrow();
    return count;
  }

  // Repairs ------------------------------------------------------------------------------

  private repairs(user: CurrentUser, mode: ScopeMode = 'read') {
    return this.db
      .selectFrom('repairs as r')
      .leftJoin('devices as d', 'd.device_sn', 'r.device_sn')
      .leftJoin('projects as p', 'p.id', 'r.project_id')
      .where('r.group_id', '=', user.groupId)
      .where(projectReachable(user, 'r.project_id', mode));
  }

  async repairPage(
    user: CurrentUser,
    filter: RepairFilter,
    order: { column: string; direction: 'asc' | 'desc' },
    page?: Page,
  ): Promise<{ rows: RepairRow[]; count: number }> {
    let q = this.repairs(user);
    if (filter.deviceSn !== undefined) q = q.where('r.device_sn', '=', filter.deviceSn);
    if (filter.projectId !== undefined) q = q.where(nodeAndBelow('r.project_id', filter.projectId));
    if (filter.state !== undefined) q = q.where('r.state', '=', filter.state);
    if (filter.from !== undefined) q = q.where('r.created_at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('r.created_at', '<', filter.to);
    if (filter.dueBefore !== undefined)
      q = q.where('r.due_at', '<', filter.dueBefore).where('r.state', 'not in', ['done', 'verified']);
    if (filter.search !== undefined) {
      const pattern = filter.search;
      q = q.where(
        sql<boolean>`(lower(r.repair_title) like ${pattern} escape '\\' or lower(r.repair_content) like ${pattern} escape '\\' or lower(r.fault_code) like ${pattern} escape '\\' or lower(r.assignee_name) like ${pattern} escape '\\')`,
      );
    }
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    let rows = q
      .selectAll('r')
      .select(['d.device_name', 'p.name as project_name'])
      .orderBy(sql.ref(order.column), order.direction)
      .orderBy('r.id', order.direction);
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    return { rows: await rows.execute(), count: count };
  }

  async repair(user: CurrentUser, id: number, mode: ScopeMode = 'read'): Promise<RepairRow | undefined> {
    return this.repairs(user, mode)
      .selectAll('r')
      .select(['d.device_name', 'p.name as project_name'])
      .where('r.id', '=', id)
      .executeTakeFirst();
  }

  async repairOfWarn(groupId: number, warnId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('repairs')
      .select('id')
      .where('group_id', '=', groupId)
      .where('warn_id', '=', warnId)
      .executeTakeFirst();
    return row?.id;
  }

  async addRepair(row: Insertable<RepairTable>): Promise<number> {
    return (await this.db.insertInto('repairs').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  /** Writes the change when the repair is still in the state it was read in; false when it moved meanwhile. */
  async updateRepair(groupId: number, id: number, row: Updateable<RepairTable>, fromState?: string): Promise<boolean> {
    let q = this.db.updateTable('repairs').set(row).where('id', '=', id).where('group_id', '=', groupId);
    if (fromState !== undefined) q = q.where('state', '=', fromState);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async removeRepair(groupId: number, id: number): Promise<void> {
    await this.db.deleteFrom('repairs').where('id', '=', id).where('group_id', '=', groupId).execute();
  }

  /** A principal of the station or of its project, else undefined. */
  async principalOf(groupId: number, projectId: number, principalId: number): Promise<{ id: number; name: string } | undefined> {
    const parent = await this.db
      .selectFrom('projects')
      .select('parent_id')
      .where('id', '=', projectId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    const refs = [`project:${String(projectId)}`];
    if (parent && parent.parent_id !== 0) refs.push(`project:${String(parent.parent_id)}`);
    return this.db
      .selectFrom('principals')
      .select(['id', 'name'])
      .where('group_id', '=', groupId)
      .where('id', '=', principalId)
      .where('parent_ref', 'in', refs)
      .executeTakeFirst();
  }

  // Inspections --------------------------------------------------------------------------

  private polls(user: CurrentUser, mode: ScopeMode = 'read') {
    return this.db
      .selectFrom('polls as o')
      .leftJoin('projects as p', 'p.id', 'o.project_id')
      .where('o.group_id', '=', user.groupId)
      .where(projectReachable(user, 'o.project_id', mode));
  }

  async pollPage(user: CurrentUser, filter: RangeFilter, page?: Page): Promise<{ rows: PollRow[]; count: number }> {
    let q = this.polls(user);
    if (filter.projectId !== undefined) q = q.where(nodeAndBelow('o.project_id', filter.projectId));
    if (filter.from !== undefined) q = q.where('o.arrived_at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('o.arrived_at', '<', filter.to);
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    let rows = q.selectAll('o').select('p.name as project_name').orderBy('o.arrived_at', 'desc').orderBy('o.id', 'desc');
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    return { rows: await rows.execute(), count: count };
  }

  async poll(user: CurrentUser, id: number, mode: ScopeMode = 'read'): Promise<PollRow | undefined> {
    return this.polls(user, mode).selectAll('o').select('p.name as project_name').where('o.id', '=', id).executeTakeFirst();
  }

  async addPoll(row: Insertable<PollTable>): Promise<number> {
    return (await this.db.insertInto('polls').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async removePoll(groupId: number, id: number): Promise<void> {
    await this.db.deleteFrom('polls').where('id', '=', id).where('group_id', '=', groupId).execute();
  }

  async pollPlan(groupId: number, projectId: number): Promise<{ items: string; interval_days: number } | undefined> {
    return this.db
      .selectFrom('poll_plans')
      .select(['items', 'interval_days'])
      .where('group_id', '=', groupId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }

  async setPollPlan(groupId: number, projectId: number, items: string[], intervalDays: number): Promise<void> {
    await this.db.deleteFrom('poll_plans').where('project_id', '=', projectId).execute();
    await this.db
      .insertInto('poll_plans')
      .values({ project_id: projectId, group_id: groupId, items: JSON.stringify(items), interval_days: intervalDays })
      .execute();
  }

  /** The reachable stations with a round schedule, and their last round. */
  async scheduledRounds(
    user: CurrentUser,
    projectId?: number,
  ): Promise<{ project_id: number; project_name: string; interval_days: number; last_at: number | null; created_at: number }[]> {
    let q = this.db
      .selectFrom('poll_plans as pp')
      .innerJoin('projects as p', 'p.id', 'pp.project_id')
      .where('pp.group_id', '=', user.groupId)
      .where('pp.interval_days', '>', 0)
      .where(projectReachable(user, 'pp.project_id'));
    if (projectId !== undefined) q = q.where(nodeAndBelow('pp.project_id', projectId));
    const rows = await q
      .select([
        'pp.project_id',
        'p.name as project_name',
        'pp.interval_days',
        'p.created_at',
        (eb) =>
          eb
            .selectFrom('polls as o')
            .select((e) => e.fn.max<number | null>('o.arrived_at').as('m'))
            .whereRef('o.project_id', '=', 'pp.project_id')
            .as('last_at'),
      ])
      .orderBy('p.name')
      .execute();
    return rows.map((r) => ({ ...r, last_at: r.last_at === null ? null : r.last_at }));
  }

  // Photos -------------------------------------------------------------------------------

  async photosOf(groupId: number, kind: RecordKind, ids: number[]): Promise<Map<number, RecordPhotoDto[]>> {
    const found = new Map<number, RecordPhotoDto[]>();
    if (ids.length === 0) return found;
    const rows = await this.db
      .selectFrom('record_photos')
      .select(['id', 'record_id', 'stage', 'storage_key'])
      .where('group_id', '=', groupId)
      .where('record_kind', '=', kind)
      .where('record_id', 'in', [...new Set(ids)])
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const list = found.get(r.record_id) ?? [];
      list.push({ Id: r.id, Stage: r.stage, url: imageUrl(r.storage_key) });
      found.set(r.record_id, list);
    }
    return found;
  }

  async addPhoto(groupId: number, kind: RecordKind, recordId: number, stage: string, key: string): Promise<RecordPhotoDto> {
    const row = await this.db
      .insertInto('record_photos')
      .values({ group_id: groupId, record_kind: kind, record_id: recordId, stage, storage_key: key, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { Id: row.id, Stage: stage, url: imageUrl(key) };
  }

  async photo(groupId: number, id: number) {
    return this.db
      .selectFrom('record_photos')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async removePhoto(groupId: number, id: number): Promise<void> {
    await this.db.deleteFrom('record_photos').where('group_id', '=', groupId).where('id', '=', id).execute();
  }

  /** Removes the photo rows of a record; answers their storage keys. */
  async removePhotosOf(groupId: number, kind: RecordKind, recordId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('record_photos')
      .select('storage_key')
      .where('group_id', '=', groupId)
      .where('record_kind', '=', kind)
      .where('record_id', '=', recordId)
      .execute();
    await this.db
      .deleteFrom('record_photos')
      .where('group_id', '=', groupId)
      .where('record_kind', '=', kind)
      .where('record_id', '=', recordId)
      .execute();
    return rows.map((r) => r.storage_key);
  }
}

/** The month's alarms, repairs and rounds of a project or station and the nodes below it. */
export class StationMonthRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Alarms opened in [from, to) by warn type: how many, how many handled, mean minutes to handle. */
  async alarmsByType(user: CurrentUser, projectId: number, from: number, to: number) {
    const rows = await this.db
      .selectFrom('warns as w')
      .leftJoin('warn_types as t', 't.id', 'w.warn_type_id')
      .select(['t.type_name', 'w.state', 'w.dt', 'w.handled_at'])
      .where('w.group_id', '=', user.groupId)
      .where(projectReachable(user, 'w.project_id'))
      .where(nodeAndBelow('w.project_id', projectId))
      .where('w.dt', '>=', from)
      .where('w.dt', '<', to)
      .execute();
    const byType = new Map<string, { count: number; handled: number; minutes: number[] }>();
    for (const r of rows) {
      const entry = byType.get(r.type_name ?? '') ?? { count: 0, handled: 0, minutes: [] };
      entry.count += 1;
      if (r.state === 1) entry.handled += 1;
      if (r.handled_at !== null) entry.minutes.push((r.handled_at - r.dt) / 60_000);
      byType.set(r.type_name ?? '', entry);
    }
    return [...byType.entries()].map(([type, e]) => ({
      TypeName: type,
      Count: e.count,
      Handled: e.handled,
      AvgMinutesToHandle: e.minutes.length === 0 ? null : Math.round(e.minutes.reduce((a, b) => a + b, 0) / e.minutes.length),
    }));
  }

  /** Repairs reported, finished and verified in [from, to), and those open and past due at `to`. */
  async repairCounts(user: CurrentUser, projectId: number, from: number, to: number) {
    const rows = await this.db
      .selectFrom('repairs as r')
      .select(['r.created_at', 'r.done_at', 'r.verified_at', 'r.due_at', 'r.state'])
      .where('r.group_id', '=', user.groupId)
      .where(projectReachable(user, 'r.project_id'))
      .where(nodeAndBelow('r.project_id', projectId))
      .where('r.created_at', '<', to)
      .execute();
    const within = (t: number | null) => t !== null && t >= from && t < to;
    return {
      Reported: rows.filter((r) => within(r.created_at)).length,
      Done: rows.filter((r) => within(r.done_at)).length,
      Verified: rows.filter((r) => within(r.verified_at)).length,
      OverdueOpen: rows.filter(
        (r) => r.due_at !== null && r.due_at < to && (r.done_at === null || r.done_at >= to) && r.state !== 'verified',
      ).length,
    };
  }

  /** The reachable stations (of a project or the station itself when given), by name. */
  async stations(user: CurrentUser, projectId?: number): Promise<{ id: number; name: string }[]> {
    let q = this.db
      .selectFrom('projects as p')
      .select(['p.id', 'p.name'])
      .where('p.group_id', '=', user.groupId)
      .where('p.project_type', '=', PROJECT_TYPE.station)
      .where(projectReachable(user, 'p.id'));
    if (projectId !== undefined) q = q.where(nodeAndBelow('p.id', projectId));
    return q.orderBy('p.name').orderBy('p.id').execute();
  }

  /** Rounds made in [from, to), the items found not in order, and the chemicals added (each round's JSON list). */
  async pollCounts(user: CurrentUser, projectId: number, from: number, to: number) {
    const rows = await this.db
      .selectFrom('polls as o')
      .select(['o.issues', 'o.chemicals'])
      .where('o.group_id', '=', user.groupId)
      .where(projectReachable(user, 'o.project_id'))
      .where(nodeAndBelow('o.project_id', projectId))
      .where('o.arrived_at', '>=', from)
      .where('o.arrived_at', '<', to)
      .execute();
    return {
      Rounds: rows.length,
      Issues: rows.reduce((n, r) => n + r.issues, 0),
      chemicals: rows.map((r) => r.chemicals),
    };
  }
}
