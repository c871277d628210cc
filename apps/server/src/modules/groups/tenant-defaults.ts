/** What every new tenant starts with: permission modules and operates, the side menu, and role grants. */
import { HJ212_DEFAULT_CODES } from '@sluice/shared/hj212.schema';
import { DEFAULT_MENUS, type DefaultMenu } from '@sluice/shared/menu.schema';
import { PERMISSION_MODULES } from '@sluice/shared/permissions';
import type { GroupsRepository } from './groups.repository.ts';

/** Seeds the defaults through `groups`, on the creating transaction. */
export async function seedTenantDefaults(
  groups: GroupsRepository,
  groupId: number,
  adminRoleId: number,
  operatorRoleId: number,
): Promise<void> {
  await groups.insertHj212Codes(groupId, HJ212_DEFAULT_CODES);
  for (const module of PERMISSION_MODULES) {
    const moduleId = await groups.insertModule(groupId, module.ModuleName['en-US'], module.Code);
    for (const operate of module.operates) {
      const operateId = await groups.insertOperate(groupId, moduleId, operate.Name['en-US'], operate.Code);
      await groups.grantOperate(adminRoleId, operateId);
      if (operate.operator) await groups.grantOperate(operatorRoleId, operateId);
    }
  }

  const insertMenu = async (menu: DefaultMenu, parentId: number, sn: number): Promise<void> => {
    const id = await groups.insertMenu({
      group_id: groupId,
      name: menu.Name,
      parent_id: parentId,
      url: menu.path ?? '',
      router: menu.path && menu.componentUrl ? JSON.stringify({ path: menu.path, componentUrl: menu.componentUrl }) : '',
      menu_type: menu.children ? 0 : 1,
      icon: menu.Icon,
      remarks: '',
      sn,
    });
    await groups.grantMenu(adminRoleId, id);
    if (menu.operator) await groups.grantMenu(operatorRoleId, id);
    for (const [index, child] of (menu.children ?? []).entries()) await insertMenu(child, id, index + 1);
  };
  for (const [index, menu] of DEFAULT_MENUS.entries()) await insertMenu(menu, 0, index + 1);
}
