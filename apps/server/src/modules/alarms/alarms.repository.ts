/**
 * Alarm (Warn) records: those devices open and clear (error codes, linked data, the offline
 * time-out), those people add, their handling, and the lists and counts the notice centre
 * reads, scoped by the group and the user's role-project grants.
 */
import { sql, type Insertable, type Selectable, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database, WarnTable } from '../../db/tables.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { likeAny } from '../../http/resource.ts';
import { projectReachable, type ScopeMode } from '../sites/site-scope.ts';

export type WarnRow = Selectable<WarnTable>;
export type NewWarn = Omit<
  Insertable<WarnTable>,
  'id' | 'group_code' | 'comments' | 'state' | 'active' | 'cleared_at' | 'handled_at' | 'handled_by' | 'handled_by_name'
> & { comments?: string };

/** An alarm with its device's, station's and warn type's names. */
export interface AlarmView extends WarnRow {
  device_name: string;
  device_no: string;
  project_name: string | null;
  type_name: string | null;
  color: string | null;
}

export interface AlarmFilter {
  state?: number | undefined;
  active?: number | undefined;
  /** A project, station or client node: alarms of devices in it or below it. */
  projectId?: number | undefined;
  typeId?: number | undefined;
  deviceSn?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** A LIKE pattern (searchPattern). */
  search?: string | undefined;
}

/** OrderBy keys → columns. */
export const ALARM_ORDER_COLUMNS: Record<string, string> = {
  Dt: 'w.dt',
  Code: 'w.code',
  DeviceSn: 'w.device_sn',
  State: 'w.state',
  Active: 'w.active',
  ClearedAt: 'w.cleared_at',
  HandledAt: 'w.handled_at',
};

/** The node `id` and the nodes up to two levels below it (client → project → station). */
export const nodeAndBelow = (column: string, id: number) =>
  sql<SqlBool>`(${sql.ref(column)} = ${id} or ${sql.ref(column)} in (select p1.id from projects p1 where p1.parent_id = ${id}) or ${sql.ref(column)} in (select p2.id from projects p2 where p2.parent_id in (select p3.id from projects p3 where p3.parent_id = ${id})))`;

export interface CodeInfo {
  code: string;
  description: string;
  warnTypeId: number | null;
}

/**
 * Alarm limits belong to device types: a device's limit of a data key is its own type's
 * standard, else the nearest ancestor type's (an analyser below the station type takes the
 * station's unless it sets its own). One type's limit never reaches another type's devices.
 */
export class TypeStandards {
  private readonly byType: ReadonlyMap<number, ReadonlyMap<string, string>>;
  private readonly parents: ReadonlyMap<number, number>;
  /** Keys some type of the group limits: measurements, not fault flags. */
  private readonly limited: ReadonlySet<string>;

  constructor(byType: ReadonlyMap<number, ReadonlyMap<string, string>>, parents: ReadonlyMap<number, number>) {
    this.byType = byType;
    this.parents = parents;
    this.limited = new Set([...byType.values()].flatMap((m) => [...m.keys()]));
  }

  static readonly none = new TypeStandards(new Map(), new Map());

  /** The standard of `key` for a device of type `typeId`; undefined when its type (and theirs above) sets none. */
  of(typeId: number | null, key: string): string | undefined {
    // Parent 0 is a top-level type; the seen set guards against a cycle in stored data.
    const seen = new Set<number>();
    let type = typeId ?? 0;
    while (type !== 0 && !seen.has(type)) {
      seen.add(type);
      const standard = this.byType.get(type)?.get(key);
      if (standard !== undefined) return standard;
      type = this.parents.get(type) ?? 0;
    }
    return undefined;
  }

  /** Whether some type of the group limits `key` (then it is a measurement, whatever this device's type says). */
  isLimited(key: string): boolean {
    return this.limited.has(key);
  }
}

export class AlarmsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async active(groupId: number, deviceSn: string): Promise<WarnRow[]> {
    return this.db
      .selectFrom('warns')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('active', '=', 1)
      .execute();
  }

  async hasActive(deviceSn: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('warns')
      .select('id')
      .where('device_sn', '=', deviceSn)
      .where('active', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Serial numbers, among these, of devices with an active alarm. */
  async withActive(groupId: number, deviceSns: string[]): Promise<Set<string>> {
    if (deviceSns.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('warns')
      .select('device_sn')
      .distinct()
      .where('group_id', '=', groupId)
      .where('device_sn', 'in', deviceSns)
      .where('active', '=', 1)
      .execute();
    return new Set(rows.map((r) => r.device_sn));
  }

  /** The descriptions and warn types of codes of a group. */
  async codes(groupId: number, codes: string[]): Promise<Map<string, CodeInfo>> {
    if (codes.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('warn_codes')
      .select(['code', 'description', 'warn_type_id'])
      .where('group_id', '=', groupId)
      .where('code', 'in', codes)
      .execute();
    return new Map(rows.map((r) => [r.code, { code: r.code, description: r.description, warnTypeId: r.warn_type_id }]));
  }

  /** DataDefineWarnCode links of a group: data key → codes raised while the key's value is not 0. */
  async links(groupId: number): Promise<Map<string, string[]>> {
    const rows = await this.db
      .selectFrom('data_define_warn_codes')
      .select(['data_key', 'code'])
      .where('group_id', '=', groupId)
      .execute();
    const links = new Map<string, string[]>();
    for (const r of rows) links.set(r.data_key, [...(links.get(r.data_key) ?? []), r.code]);
    return links;
  }

  /** The standards ('50', '6,9') of a group's type statistics by type and data key, and the types' parents. */
  async standards(groupId: number): Promise<TypeStandards> {
    const rows = await this.db
      .selectFrom('type_statistics as ts')
      .innerJoin('data_defines as d', 'd.id', 'ts.data_define_id')
      .select(['ts.type_id', 'd.data_key', 'ts.standard'])
      .where('ts.group_id', '=', groupId)
      .where('ts.standard', '!=', '')
      .orderBy('ts.id')
      .execute();
    const types = await this.db.selectFrom('device_types').select(['id', 'parent_id']).where('group_id', '=', groupId).execute();
    const byType = new Map<number, Map<string, string>>();
    for (const r of rows) {
      const own = byType.get(r.type_id) ?? new Map<string, string>();
      if (!own.has(r.data_key)) own.set(r.data_key, r.standard);
      byType.set(r.type_id, own);
    }
    return new TypeStandards(byType, new Map(types.map((t) => [t.id, t.parent_id])));
  }

  async open(rows: NewWarn[]): Promise<WarnRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insertInto('warns')
      .values(rows.map((r) => ({ ...r, cleared_at: null, handled_at: null })))
      .returningAll()
      .execute();
  }

  async close(groupId: number, ids: number[], at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('warns')
      .set({ active: 0, cleared_at: at })
      .where('group_id', '=', groupId)
      .where('id', 'in', ids)
      .where('active', '=', 1)
      .execute();
  }

  /** Alarms of the group's live devices the user reaches (the join every read and write of a user goes through). */
  private reached(user: CurrentUser, mode: ScopeMode = 'read') {
    return this.db
      .selectFrom('warns as w')
      .innerJoin('devices as d', (j) => j.onRef('d.device_sn', '=', 'w.device_sn').onRef('d.group_id', '=', 'w.group_id'))
      .where('w.group_id', '=', user.groupId)
      .where('d.deleted_at', 'is', null)
      .where(projectReachable(user, 'd.project_id', mode));
  }

  private filtered(user: CurrentUser, filter: AlarmFilter) {
    let q = this.reached(user);
    if (filter.state !== undefined) q = q.where('w.state', '=', filter.state);
    if (filter.active !== undefined) q = q.where('w.active', '=', filter.active);
    if (filter.projectId !== undefined) q = q.where(nodeAndBelow('d.project_id', filter.projectId));
    if (filter.typeId !== undefined) q = q.where('w.warn_type_id', '=', filter.typeId);
    if (filter.deviceSn !== undefined) q = q.where('w.device_sn', '=', filter.deviceSn);
    if (filter.from !== undefined) q = q.where('w.dt', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('w.dt', '<', filter.to);
    if (filter.search)
      q = q.where(
        likeAny(['w.code', 'w.description', 'w.comments', 'w.device_sn', 'd.device_name', 'd.device_no'], filter.search),
      );
    return q;
  }

  private static viewColumns(eb: ExpressionBuilder<Database & { w: WarnTable; d: Database['devices'] }, 'w' | 'd'>) {
    return [
      eb.ref('d.device_name').as('device_name'),
      eb.ref('d.device_no').as('device_no'),
      eb.selectFrom('projects as p').select('p.name').whereRef('p.id', '=', 'd.project_id').as('project_name'),
      eb.selectFrom('warn_types as t').select('t.type_name').whereRef('t.id', '=', 'w.warn_type_id').as('type_name'),
      eb.selectFrom('warn_types as t2').select('t2.color').whereRef('t2.id', '=', 'w.warn_type_id').as('color'),
    ];
  }

  /** A page of the alarms the user reaches, with their count. */
  async page(
    user: CurrentUser,
    filter: AlarmFilter,
    order: { column: string; direction: 'asc' | 'desc' },
    page: { no: number; size: number },
  ): Promise<{ rows: AlarmView[]; count: number }> {
    const q = this.filtered(user, filter);
    const { count } = await q.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll('w')
      .select((eb) => AlarmsRepository.viewColumns(eb))
      .orderBy(sql.ref(order.column), order.direction)
      .orderBy('w.id', order.direction)
      .limit(page.size)
      .offset((page.no - 1) * page.size)
      .execute();
    return { rows, count: Number(count) };
  }

  /** The alarms among `ids` the user reaches (writes: through a grant that is not view-only). */
  async reachedByIds(user: CurrentUser, ids: number[], mode: ScopeMode = 'read'): Promise<AlarmView[]> {
    if (ids.length === 0) return [];
    const rows = await this.reached(user, mode)
      .where('w.id', 'in', ids)
      .selectAll('w')
      .select((eb) => AlarmsRepository.viewColumns(eb))
      .execute();
    return rows;
  }

  /** Counts of the alarms the user reaches: active unhandled, and all unhandled. */
  async unhandledCounts(user: CurrentUser): Promise<{ activeUnhandled: number; unhandled: number }> {
    const row = await this.reached(user)
      .where('w.state', '=', 0)
      .select((eb) => [
        eb.fn.countAll<number | string>().as('unhandled'),
        eb.fn.sum<number | string | null>(eb.case().when('w.active', '=', 1).then(1).else(0).end()).as('active_unhandled'),
      ])
      .executeTakeFirstOrThrow();
    return { activeUnhandled: Number(row.active_unhandled ?? 0), unhandled: Number(row.unhandled) };
  }

  /**
   * Marks alarms handled by `user` with `comments`; a manual alarm is cleared by its handling
   * (nothing else would clear it). Only unhandled ones change; the ids changed.
   */
  async handle(
    groupId: number,
    ids: number[],
    by: { id: number; name: string },
    comments: string,
    at: number,
  ): Promise<number[]> {
    if (ids.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('warns')
        .set({ state: 1, comments, handled_at: at, handled_by: by.id, handled_by_name: by.name })
        .where('group_id', '=', groupId)
        .where('id', 'in', ids)
        .where('state', '=', 0)
        .returning('id')
        .execute();
      await trx
        .updateTable('warns')
        .set({ active: 0, cleared_at: at })
        .where('group_id', '=', groupId)
        .where('id', 'in', ids)
        .where('source', '=', 'manual')
        .where('active', '=', 1)
        .execute();
      return changed.map((r) => r.id);
    });
  }

  async remove(groupId: number, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('warns').where('group_id', '=', groupId).where('id', 'in', ids).execute();
  }

  /** The active alarm of a device from a source (the offline alarm), if any. */
  async activeFrom(groupId: number, deviceSn: string, source: string): Promise<WarnRow[]> {
    return this.db
      .selectFrom('warns')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('source', '=', source)
      .where('active', '=', 1)
      .execute();
  }

  /** Devices offline and not heard of since `before` without an active offline alarm (a device in the recycle bin has none). */
  async silentWithoutOfflineAlarm(
    before: number,
  ): Promise<{ groupId: number; deviceSn: string; projectId: number | null; lastSeen: number }[]> {
    const rows = await this.db
      .selectFrom('devices as d')
      .select(['d.group_id', 'd.device_sn', 'd.project_id', 'd.last_seen'])
      .where('d.online', '=', 0)
      .where('d.deleted_at', 'is', null)
      .where('d.last_seen', 'is not', null)
      .where('d.last_seen', '<', before)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('warns as w')
              .select('w.id')
              .whereRef('w.device_sn', '=', 'd.device_sn')
              .whereRef('w.group_id', '=', 'd.group_id')
              .where('w.source', '=', 'offline')
              .where('w.active', '=', 1),
          ),
        ),
      )
      .execute();
    return rows.map((r) => ({
      groupId: r.group_id,
      deviceSn: r.device_sn,
      projectId: r.project_id,
      lastSeen: r.last_seen ?? before,
    }));
  }

  /** Counts of the alarms the user reaches opened in [from, to): by state, type, project and local day. */
  async statistics(
    user: CurrentUser,
    filter: { from: number; to: number; projectId?: number | undefined },
    offsetMinutes: number,
  ) {
    const base = () => this.filtered(user, { from: filter.from, to: filter.to, projectId: filter.projectId });
    const states = await base()
      .select((eb) => [
        eb.fn.countAll<number | string>().as('total'),
        eb.fn.sum<number | string | null>(eb.case().when('w.active', '=', 1).then(1).else(0).end()).as('active'),
        eb.fn.sum<number | string | null>(eb.case().when('w.state', '=', 1).then(1).else(0).end()).as('handled'),
      ])
      .executeTakeFirstOrThrow();
    const byType = await base()
      .leftJoin('warn_types as t', 't.id', 'w.warn_type_id')
      .select((eb) => [
        'w.warn_type_id',
        eb.fn.max('t.type_name').as('type_name'),
        eb.fn.max('t.color').as('color'),
        eb.fn.countAll<number | string>().as('count'),
      ])
      .groupBy('w.warn_type_id')
      .orderBy('count', 'desc')
      .execute();
    const byProject = await base()
      .leftJoin('projects as p', 'p.id', 'd.project_id')
      .select((eb) => ['d.project_id', eb.fn.max('p.name').as('project_name'), eb.fn.countAll<number | string>().as('count')])
      .groupBy('d.project_id')
      .orderBy('count', 'desc')
      .execute();
    const offsetMs = offsetMinutes * 60_000;
    const day = sql<number | string>`floor((w.dt + ${sql.lit(offsetMs)}) / 86400000.0)`;
    const byDay = await base()
      .select((eb) => [day.as('day'), eb.fn.countAll<number | string>().as('count')])
      .groupBy(day)
      .orderBy(day)
      .execute();
    const total = Number(states.total);
    const active = Number(states.active ?? 0);
    const handled = Number(states.handled ?? 0);
    return {
      total,
      active,
      handled,
      byType: byType.map((r) => ({
        typeId: r.warn_type_id,
        typeName: r.type_name ?? '',
        color: r.color ?? '',
        count: Number(r.count),
      })),
      byProject: byProject.map((r) => ({ projectId: r.project_id, projectName: r.project_name ?? '', count: Number(r.count) })),
      byDay: byDay.map((r) => ({ day: Number(r.day), count: Number(r.count) })),
    };
  }
}
