/**
 * The client → project → station tree. Every query is scoped by group and by what the user
 * reaches (site-scope.ts); summaries are computed for a whole page at once, never per row.
 */
import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import { KIND_OF_TYPE, PROJECT_TYPE, type ProjectDto } from '@sluice/shared/project.schema';
import type { Db } from '../../db/database.ts';
import type { ProjectTable } from '../../db/tables.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { likeAny, pickOrder, searchPattern } from '../../http/resource.ts';
import type { PageQuery } from '@sluice/shared/paging.schema';
import { clientProjectIds, projectReachable, type ProjectRow } from './site-scope.ts';

export const PROJECT_SORTABLE = {
  Id: 'id',
  Name: 'name',
  ProjectName: 'name',
  ProjectType: 'project_type',
  CreatedAt: 'created_at',
  Address: 'address',
};

export interface ProjectFilter {
  types?: number[];
  parentId?: number | undefined;
  online?: number | undefined;
  /** a client's nodes: those with its ClientId and the stations under them */
  clientId?: number | undefined;
}

export const imageUrl = (key: string) => `/uploads/${key}`;

export class ProjectsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private scoped(user: CurrentUser, filter: ProjectFilter, search?: string) {
    let q = this.db
      .selectFrom('projects')
      .where('projects.group_id', '=', user.groupId)
      .where(projectReachable(user, 'projects.id'));
    if (filter.types) q = q.where('projects.project_type', 'in', filter.types);
    if (filter.parentId !== undefined) q = q.where('projects.parent_id', '=', filter.parentId);
    if (filter.clientId !== undefined) {
      const id = filter.clientId;
      q = q.where('projects.id', 'in', clientProjectIds(user.groupId, id));
    }
    if (filter.online !== undefined) {
      const online = sql<SqlBool>`exists (select 1 from devices od where od.deleted_at is null and od.online = 1 and od.group_id = ${user.groupId} and (od.project_id = projects.id or od.project_id in (select oc.id from projects oc where oc.parent_id = projects.id)))`;
      q = q.where(filter.online === 1 ? online : sql<SqlBool>`not ${online}`);
    }
    const pattern = searchPattern(search);
    if (pattern) q = q.where(likeAny(['projects.name', 'projects.address'], pattern));
    return q;
  }

  /** A page of the nodes the user reaches, with the total count. */
  async page(user: CurrentUser, filter: ProjectFilter, query: PageQuery): Promise<{ rows: ProjectRow[]; count: number }> {
    const q = this.scoped(user, filter, query.Search);
    const order = pickOrder(query, PROJECT_SORTABLE, { key: 'Id', direction: 'asc' });
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll('projects')
      .orderBy(sql.ref(`projects.${order.column}`), order.direction)
      .orderBy('projects.id', order.direction)
      .limit(query.PageSize)
      .offset((query.PageNo - 1) * query.PageSize)
      .execute();
    return { rows, count };
  }

  /** Every node the user reaches of the filter, sorted by type then name. */
  async all(user: CurrentUser, filter: ProjectFilter): Promise<ProjectRow[]> {
    return this.scoped(user, filter)
      .selectAll('projects')
      .orderBy('projects.project_type')
      .orderBy('projects.name')
      .orderBy('projects.id')
      .execute();
  }

  async byId(groupId: number, id: number): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst();
  }

  async nameTaken(groupId: number, parentId: number, name: string, selfId?: number): Promise<boolean> {
    let q = this.db
      .selectFrom('projects')
      .select('id')
      .where('group_id', '=', groupId)
      .where('parent_id', '=', parentId)
      .where(sql`lower(name)`, '=', name.toLowerCase());
    if (selfId !== undefined) q = q.where('id', '!=', selfId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /**
   * How many nodes a node holds directly, and how many live devices (not in the recycle bin) it
   * holds anywhere below it: on itself, its stations and theirs.
   */
  async contents(groupId: number, id: number): Promise<{ children: number; devices: number }> {
    const children = await this.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', groupId)
      .where('parent_id', '=', id)
      .executeTakeFirstOrThrow();
    const devices = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', groupId)
      .where(
        sql<SqlBool>`project_id in (select cp.id from projects cp where cp.group_id = ${groupId} and (cp.id = ${id} or cp.parent_id = ${id} or cp.parent_id in (select cc.id from projects cc where cc.group_id = ${groupId} and cc.parent_id = ${id})))`,
      )
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { children: children.n, devices: devices.n };
  }

  /**
   * The DTOs of a set of nodes with their counts, state and cover image: five queries for the
   * whole set (children, grandchildren, device counts, images, parent names), whatever its size.
   */
  async summarize(groupId: number, rows: ProjectRow[]): Promise<ProjectDto[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const children = await this.db
      .selectFrom('projects')
      .select(['id', 'parent_id', 'project_type'])
      .where('group_id', '=', groupId)
      .where('parent_id', 'in', ids)
      .execute();
    const childIds = children.map((c) => c.id);
    const grandchildren = childIds.length
      ? await this.db
          .selectFrom('projects')
          .select(['id', 'parent_id'])
          .where('group_id', '=', groupId)
          .where('parent_id', 'in', childIds)
          .execute()
      : [];
    const counted = [...ids, ...childIds, ...grandchildren.map((g) => g.id)];
    const devices = await this.db
      .selectFrom('devices')
      .select((eb) => [
        'project_id',
        eb.fn.countAll<number | string>().as('num'),
        eb.fn.sum<number | string>('online').as('online'),
        // Online with an active alarm (State 2 of a device).
        eb.fn
          .sum<number | string>(
            sql<number>`case when devices.online = 1 and exists (select 1 from warns aw where aw.group_id = devices.group_id and aw.device_sn = devices.device_sn and aw.active = 1) then 1 else 0 end`,
          )
          .as('warning'),
        eb.fn.max<number | string | null>('last_seen').as('last_seen'),
      ])
      .where('group_id', '=', groupId)
      .where('deleted_at', 'is', null)
      .where('project_id', 'in', counted)
      .groupBy('project_id')
      .execute();
    const images = await this.db
      .selectFrom('project_images')
      .select(['project_id', 'storage_key'])
      .where('group_id', '=', groupId)
      .where('project_id', 'in', ids)
      .orderBy('sn')
      .orderBy('id')
      .execute();
    const parentIds = [...new Set(rows.map((r) => r.parent_id).filter((p) => p > 0))];
    const parents = parentIds.length
      ? await this.db
          .selectFrom('projects')
          .select(['id', 'name'])
          .where('group_id', '=', groupId)
          .where('id', 'in', parentIds)
          .execute()
      : [];

    const own = new Map(
      devices.map((d) => [
        d.project_id,
        {
          num: Number(d.num),
          online: Number(d.online),
          warning: Number(d.warning),
          lastSeen: d.last_seen === null ? null : Number(d.last_seen),
        },
      ]),
    );
    // A station is both a child (of its project in the set) and a grandchild (of the project's
    // client in the set): each link once, or the project would count its stations twice.
    const links = new Map([...children, ...grandchildren].map((link) => [link.id, link.parent_id]));
    const below = new Map<number, number[]>();
    for (const [id, parentId] of links) below.set(parentId, [...(below.get(parentId) ?? []), id]);
    interface Totals {
      num: number;
      online: number;
      warning: number;
      lastSeen: number | null;
    }
    const totals = (id: number): Totals => {
      const sum = { ...(own.get(id) ?? { num: 0, online: 0, warning: 0, lastSeen: null }) };
      for (const child of below.get(id) ?? []) {
        const t = totals(child);
        sum.num += t.num;
        sum.online += t.online;
        sum.warning += t.warning;
        if (t.lastSeen !== null && (sum.lastSeen === null || t.lastSeen > sum.lastSeen)) sum.lastSeen = t.lastSeen;
      }
      return sum;
    };
    const cover = new Map<number, string>();
    for (const image of images) if (!cover.has(image.project_id)) cover.set(image.project_id, imageUrl(image.storage_key));
    const parentName = new Map(parents.map((p) => [p.id, p.name]));

    return rows.map((r) => {
      const t = totals(r.id);
      const mine = children.filter((c) => c.parent_id === r.id);
      return {
        Id: r.id,
        Name: r.name,
        ProjectName: r.name,
        ProjectType: r.project_type,
        ProjectKind: KIND_OF_TYPE[r.project_type] ?? 'project',
        ParentId: r.parent_id,
        ParentName: parentName.get(r.parent_id) ?? null,
        ClientId: r.client_id,
        RegionId: r.region_id,
        AreaId: r.area_id,
        Address: r.address,
        Position: r.position,
        SitesNum: mine.filter((c) => c.project_type === PROJECT_TYPE.station).length,
        ProjectNum: mine.filter((c) => c.project_type === PROJECT_TYPE.project).length,
        DeviceNum: t.num,
        OnlineNum: t.online,
        OfflineNum: t.num - t.online,
        Online: t.online > 0,
        State: t.warning > 0 ? 2 : t.online > 0 ? 1 : 0,
        WarningNum: t.warning,
        LastSeen: t.lastSeen,
        Image: cover.get(r.id) ?? null,
        CreatedAt: r.created_at,
      };
    });
  }
  /** A node of the group with its type, or undefined. */
  node(id: number, groupId: number) {
    return this.db
      .selectFrom('projects')
      .select(['id', 'project_type'])
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
  }

  async insert(row: Insertable<ProjectTable>): Promise<number> {
    return (await this.db.insertInto('projects').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async update(id: number, groupId: number, values: Updateable<ProjectTable>): Promise<void> {
    await this.db.updateTable('projects').set(values).where('id', '=', id).where('group_id', '=', groupId).execute();
  }

  /** Deletes a node with its images, affiliates, principals and grants, in one transaction; answers the stored images' keys. */
  async removeWithDetails(id: number, groupId: number): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const images = await trx
        .selectFrom('project_images')
        .select('storage_key')
        .where('project_id', '=', id)
        .where('group_id', '=', groupId)
        .execute();
      await trx.deleteFrom('project_images').where('project_id', '=', id).where('group_id', '=', groupId).execute();
      await trx.deleteFrom('project_affiliates').where('project_id', '=', id).where('group_id', '=', groupId).execute();
      await trx.deleteFrom('principals').where('parent_ref', '=', `project:${id}`).where('group_id', '=', groupId).execute();
      await trx.deleteFrom('role_projects').where('project_id', '=', id).execute();
      await trx.deleteFrom('projects').where('id', '=', id).where('group_id', '=', groupId).execute();
      return images.map((i) => i.storage_key);
    });
  }
}
