/**
 * The group's menus (spec §7 Menus): all of them as a tree (GetAllMenu), one menu's children
 * (GetSubMenu), add, edit and delete. Router travels as JSON text { path, componentUrl }.
 */
import type { MenuDto } from '@sluice/shared/menu.schema';
import { defineResource, type ResourceContext } from '../../../components/resource-table/resource';

export type MenuRow = MenuDto & { children?: MenuRow[] };

const writes = {
  create: 'POST /SysMenu/AddMenu',
  update: 'PUT /SysMenu/UpdateSysMenu',
  remove: 'POST /SysMenu/DeleteSysMenu#Id',
} as const;

export const menusResource = defineResource<MenuRow>({
  key: 'menus',
  operate: 'menu.manage',
  list: 'GET /SysMenu/GetAllMenu',
  paging: 'none',
  ...writes,
});

/** The children of one menu: list params { menuId }. */
export const subMenusResource = defineResource<MenuRow>({
  key: 'sub-menus',
  operate: 'menu.manage',
  list: 'GET /SysMenu/GetSubMenu',
  paging: 'none',
  ...writes,
});

/** Every menu of the group, flat (the same query as the menu set's table). */
export const allMenusQueryOptions = (ctx: ResourceContext) => ({
  ...menusResource.listQueryOptions(ctx, {}),
  enabled: ctx.groupId > 0,
});
