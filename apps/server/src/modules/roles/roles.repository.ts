/** Roles' SQL: which rows a group owns, a role's users, and the operates a role holds. */
import type { Db } from '../../db/database.ts';

export type GroupOwnedTable = 'roles' | 'module_operates' | 'modules' | 'sys_menus';

export class RolesRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** Whether every id names a row of the table that belongs to the group (none given: yes). */
  async allOwned(table: GroupOwnedTable, ids: number[], groupId: number): Promise<boolean> {
    if (ids.length === 0) return true;
    const rows = await this.db.selectFrom(table).select('id').where('id', 'in', ids).where('group_id', '=', groupId).execute();
    return rows.length === new Set(ids).size;
  }

  /** Whether a user holds the role. */
  async hasUsers(roleId: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('user_roles').select('user_id').where('role_id', '=', roleId).executeTakeFirst()) !== undefined
    );
  }

  /** The operates a role holds, by id. */
  operates(roleId: number) {
    return this.db
      .selectFrom('role_operates')
      .innerJoin('module_operates', 'module_operates.id', 'role_operates.operate_id')
      .select(['module_operates.id', 'module_operates.module_id', 'module_operates.name', 'module_operates.code'])
      .where('role_operates.role_id', '=', roleId)
      .orderBy('module_operates.id')
      .execute();
  }

  /** Gives a role an operate (once). */
  async grantOperate(roleId: number, operateId: number): Promise<void> {
    const existing = await this.db
      .selectFrom('role_operates')
      .select('role_id')
      .where('role_id', '=', roleId)
      .where('operate_id', '=', operateId)
      .executeTakeFirst();
    if (!existing) await this.db.insertInto('role_operates').values({ role_id: roleId, operate_id: operateId }).execute();
  }

  async revokeOperate(roleId: number, operateId: number): Promise<void> {
    await this.db.deleteFrom('role_operates').where('role_id', '=', roleId).where('operate_id', '=', operateId).execute();
  }
}
