/** Menus' SQL: a group's menus, the menus a user's roles grant, a role's menus. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SysMenuTable } from '../../db/tables.ts';

export type MenuRow = Omit<Selectable<SysMenuTable>, 'group_id'>;

export class MenusRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** Every menu of the group, parents first, in order. */
  groupMenus(groupId: number): Promise<MenuRow[]> {
    return this.db
      .selectFrom('sys_menus')
      .select(['id', 'name', 'parent_id', 'url', 'router', 'menu_type', 'icon', 'remarks', 'sn'])
      .where('group_id', '=', groupId)
      .orderBy('parent_id')
      .orderBy('sn')
      .orderBy('id')
      .execute();
  }

  /** The ids of the menus the user's roles grant. */
  async grantedTo(userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('role_menus')
      .innerJoin('user_roles', 'user_roles.role_id', 'role_menus.role_id')
      .select('role_menus.menu_id')
      .where('user_roles.user_id', '=', userId)
      .execute();
    return rows.map((r) => r.menu_id);
  }

  /** The menu type of a menu of the group, or undefined when there is none. */
  async menuType(id: number, groupId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('sys_menus')
      .select(['menu_type'])
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.menu_type;
  }

  async hasChildren(id: number, groupId: number): Promise<boolean> {
    const child = await this.db
      .selectFrom('sys_menus')
      .select('id')
      .where('parent_id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return child !== undefined;
  }

  /** The ids of the menus a role sees. */
  async ofRole(roleId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('role_menus')
      .select('menu_id')
      .where('role_id', '=', roleId)
      .orderBy('menu_id')
      .execute();
    return rows.map((r) => r.menu_id);
  }

  /** Sets the menus a role sees (the full set). */
  async setOfRole(roleId: number, menuIds: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('role_menus').where('role_id', '=', roleId).execute();
      for (const menuId of new Set(menuIds))
        await trx.insertInto('role_menus').values({ role_id: roleId, menu_id: menuId }).execute();
    });
  }
}
