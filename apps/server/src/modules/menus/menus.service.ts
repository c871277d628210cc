/** Which menus a user sees: an administrator all of the group's, others those of their roles, with their parents. */
import type { MenuDto } from '@sluice/shared/menu.schema';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SysMenuTable } from '../../db/tables.ts';
import type { CurrentUser } from '../account/users.repository.ts';

type MenuRow = Omit<Selectable<SysMenuTable>, 'group_id'>;

export const toMenuDto = (row: MenuRow): MenuDto => ({
  Id: row.id,
  Name: row.name,
  ParentId: row.parent_id,
  Url: row.url,
  Router: row.router,
  MenuType: row.menu_type === 1 ? 1 : 0,
  Icon: row.icon,
  Remarks: row.remarks,
  Sn: row.sn,
});

export async function groupMenus(db: Db, groupId: number): Promise<MenuRow[]> {
  return db
    .selectFrom('sys_menus')
    .select(['id', 'name', 'parent_id', 'url', 'router', 'menu_type', 'icon', 'remarks', 'sn'])
    .where('group_id', '=', groupId)
    .orderBy('parent_id')
    .orderBy('sn')
    .orderBy('id')
    .execute();
}

export async function menusOf(db: Db, user: CurrentUser): Promise<MenuDto[]> {
  const all = await groupMenus(db, user.groupId);
  if (user.isAdmin) return all.map(toMenuDto);
  const granted = await db
    .selectFrom('role_menus')
    .innerJoin('user_roles', 'user_roles.role_id', 'role_menus.role_id')
    .select('role_menus.menu_id')
    .where('user_roles.user_id', '=', user.id)
    .execute();
  const byId = new Map(all.map((m) => [m.id, m]));
  const visible = new Set<number>();
  for (const { menu_id } of granted) {
    // A granted menu brings its navigation parents, so it can be reached in the tree.
    for (let m = byId.get(menu_id); m && !visible.has(m.id); m = byId.get(m.parent_id)) visible.add(m.id);
  }
  return all.filter((m) => visible.has(m.id)).map(toMenuDto);
}
