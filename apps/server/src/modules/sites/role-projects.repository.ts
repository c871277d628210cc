/** Role-project grants: which nodes of the tree a role's users reach. Scoped by group. */
import type { RoleProjectDto } from '@sluice/shared/project.schema';
import type { Db } from '../../db/database.ts';

export class RoleProjectsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async roleInGroup(roleId: number, groupId: number): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('roles')
        .select('id')
        .where('id', '=', roleId)
        .where('group_id', '=', groupId)
        .executeTakeFirst()) !== undefined
    );
  }

  async grants(roleId: number, groupId: number): Promise<RoleProjectDto[]> {
    const rows = await this.db
      .selectFrom('role_projects')
      .innerJoin('projects', 'projects.id', 'role_projects.project_id')
      .select([
        'role_projects.role_id',
        'role_projects.project_id',
        'role_projects.operate',
        'projects.name',
        'projects.project_type',
      ])
      .where('role_projects.role_id', '=', roleId)
      .where('projects.group_id', '=', groupId)
      .orderBy('projects.project_type')
      .orderBy('projects.name')
      .execute();
    return rows.map((r) => ({
      RoleId: r.role_id,
      ProjectId: r.project_id,
      ProjectName: r.name,
      ProjectType: r.project_type,
      Operate: r.operate,
      TypeId: r.operate,
    }));
  }

  /** The first of the ids that is not a node of the group, if any. */
  async firstForeign(projectIds: number[], groupId: number): Promise<number | undefined> {
    if (projectIds.length === 0) return undefined;
    const found = await this.db
      .selectFrom('projects')
      .select('id')
      .where('id', 'in', projectIds)
      .where('group_id', '=', groupId)
      .execute();
    const known = new Set(found.map((f) => f.id));
    return projectIds.find((id) => !known.has(id));
  }

  /** Grants the role one project with this operate, or changes the operate of its grant. */
  async grant(roleId: number, projectId: number, operate: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('role_projects').where('role_id', '=', roleId).where('project_id', '=', projectId).execute();
      await trx.insertInto('role_projects').values({ role_id: roleId, project_id: projectId, operate }).execute();
    });
  }

  /** Replaces the role's grants with these (project id → operate), in one transaction. */
  async replace(roleId: number, grants: Map<number, number>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('role_projects').where('role_id', '=', roleId).execute();
      if (grants.size === 0) return;
      await trx
        .insertInto('role_projects')
        .values([...grants].map(([projectId, operate]) => ({ role_id: roleId, project_id: projectId, operate })))
        .execute();
    });
  }
}
