/** What every new tenant starts with: permission modules and operates, the side menu, and role grants. */
import { DEFAULT_MENUS, type DefaultMenu } from '@sluice/shared/menu.schema';
import { PERMISSION_MODULES } from '@sluice/shared/permissions';
import type { Db } from '../../db/database.ts';

export async function seedTenantDefaults(db: Db, groupId: number, adminRoleId: number, operatorRoleId: number): Promise<void> {
  for (const module of PERMISSION_MODULES) {
    const { id: moduleId } = await db
      .insertInto('modules')
      .values({ group_id: groupId, module_name: module.ModuleName['en-US'], code: module.Code })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const operate of module.operates) {
      const { id: operateId } = await db
        .insertInto('module_operates')
        .values({ group_id: groupId, module_id: moduleId, name: operate.Name['en-US'], code: operate.Code })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('role_operates').values({ role_id: adminRoleId, operate_id: operateId }).execute();
      if (operate.operator)
        await db.insertInto('role_operates').values({ role_id: operatorRoleId, operate_id: operateId }).execute();
    }
  }

  const insertMenu = async (menu: DefaultMenu, parentId: number, sn: number): Promise<void> => {
    const { id } = await db
      .insertInto('sys_menus')
      .values({
        group_id: groupId,
        name: menu.Name,
        parent_id: parentId,
        url: menu.path ?? '',
        router: menu.path && menu.componentUrl ? JSON.stringify({ path: menu.path, componentUrl: menu.componentUrl }) : '',
        menu_type: menu.children ? 0 : 1,
        icon: menu.Icon,
        remarks: '',
        sn,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('role_menus').values({ role_id: adminRoleId, menu_id: id }).execute();
    if (menu.operator) await db.insertInto('role_menus').values({ role_id: operatorRoleId, menu_id: id }).execute();
    for (const [index, child] of (menu.children ?? []).entries()) await insertMenu(child, id, index + 1);
  };
  for (const [index, menu] of DEFAULT_MENUS.entries()) await insertMenu(menu, 0, index + 1);
}
