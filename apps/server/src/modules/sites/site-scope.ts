/**
 * Which projects, stations and devices a user may reach. Administrators reach their whole
 * group; anyone else reaches the projects granted to their roles (role_projects), everything
 * below those, and the devices in them. Every project and device query goes through here, so
 * what is not granted is simply not found (404), never leaked.
 */
import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DeviceTable, ProjectTable } from '../../db/tables.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import { GRANT_OPERATE } from '@sluice/shared/project.schema';

/** Read: see it. Write: change it (a grant with Operate 0; view-only grants only read). */
export type ScopeMode = 'read' | 'write';

export type ProjectRow = Selectable<ProjectTable>;
export type DeviceRow = Selectable<DeviceTable>;

/** The ids of the projects granted to the user's roles. */
function granted(user: CurrentUser, mode: ScopeMode): RawBuilder<number> {
  const writable = mode === 'write' ? sql`and rp.operate = ${GRANT_OPERATE.full}` : sql``;
  return sql<number>`select rp.project_id from role_projects rp inner join user_roles ur on ur.role_id = rp.role_id where ur.user_id = ${user.id} ${writable}`;
}

/**
 * The ids of the tree nodes the user reaches: granted nodes and up to two levels below them
 * (client → project → station). Undefined for an administrator, who reaches the whole group.
 */
export function reachableProjectIds(user: CurrentUser, mode: ScopeMode): RawBuilder<number> | undefined {
  if (user.isAdmin) return undefined;
  const g = granted(user, mode);
  return sql<number>`select sp.id from projects sp where sp.group_id = ${user.groupId} and (sp.id in (${g}) or sp.parent_id in (${g}) or sp.parent_id in (select sc.id from projects sc where sc.parent_id in (${g})))`;
}

/** A condition that the project id in `column` is reachable (always true for administrators). */
export function projectReachable(user: CurrentUser, column: string, mode: ScopeMode = 'read'): RawBuilder<SqlBool> {
  const ids = reachableProjectIds(user, mode);
  return ids ? sql<SqlBool>`${sql.ref(column)} in (${ids})` : sql<SqlBool>`1 = 1`;
}

/** The ids of a client's nodes: those with its ClientId and the stations under them (a parenthesised subquery). */
export function clientProjectIds(groupId: number, clientId: number): RawBuilder<number> {
  return sql<number>`(select cp.id from projects cp where cp.group_id = ${groupId} and (cp.client_id = ${clientId} or cp.parent_id in (select cc.id from projects cc where cc.group_id = ${groupId} and cc.client_id = ${clientId})))`;
}

export class SiteScope {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** A project, station or client node the user reaches, else 404; 403 when only viewable for a write. */
  async project(user: CurrentUser, id: number, mode: ScopeMode = 'read'): Promise<ProjectRow> {
    const row = await this.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', id)
      .where('group_id', '=', user.groupId)
      .where(projectReachable(user, 'projects.id', 'read'))
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'error.notFound');
    if (mode === 'write') await this.assertWritable(user, id);
    return row;
  }

  /**
   * A client of the user's group, else 404. What of it the user then reaches is what their roles
   * reach: every query narrowed to its nodes (clientProjectIds) is also narrowed to the user's.
   */
  async client(user: CurrentUser, id: number): Promise<void> {
    const row = await this.db
      .selectFrom('clients')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', user.groupId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'error.notFound');
  }

  private async assertWritable(user: CurrentUser, projectId: number): Promise<void> {
    if (user.isAdmin) return;
    const writable = await this.db
      .selectFrom('projects')
      .select('id')
      .where('id', '=', projectId)
      .where(projectReachable(user, 'projects.id', 'write'))
      .executeTakeFirst();
    if (!writable) throw new AppError(403, 'project.viewOnly');
  }

  /**
   * A device the user reaches (not in the recycle bin), else 404. Unassigned devices are reached
   * by administrators only.
   */
  async device(user: CurrentUser, sn: string, mode: ScopeMode = 'read'): Promise<DeviceRow> {
    const row = await this.db
      .selectFrom('devices')
      .selectAll()
      .where('device_sn', '=', sn)
      .where('group_id', '=', user.groupId)
      .where('deleted_at', 'is', null)
      .where(projectReachable(user, 'devices.project_id', 'read'))
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'error.notFound');
    if (mode === 'write' && row.project_id !== null) await this.assertWritable(user, row.project_id);
    return row;
  }
}
