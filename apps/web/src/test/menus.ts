/** The seeded menus of a new group (DEFAULT_MENUS) as GET /api/SysMenu/GetAllMenu answers them. */
import { DEFAULT_MENUS, type DefaultMenu, type MenuDto } from '@sluice/shared/menu.schema';

export function seededMenus(options: { operatorOnly?: boolean } = {}): MenuDto[] {
  const menus: MenuDto[] = [];
  let nextId = 1;
  const add = (menu: DefaultMenu, parentId: number, sn: number) => {
    if (options.operatorOnly && !menu.operator) return;
    const id = nextId++;
    menus.push({
      Id: id,
      Name: menu.Name,
      ParentId: parentId,
      Url: menu.path ?? '',
      Router: menu.path && menu.componentUrl ? JSON.stringify({ path: menu.path, componentUrl: menu.componentUrl }) : '',
      MenuType: menu.children ? 0 : 1,
      Icon: menu.Icon,
      Remarks: '',
      Sn: sn,
    });
    (menu.children ?? []).forEach((child, index) => {
      add(child, id, index + 1);
    });
  };
  DEFAULT_MENUS.forEach((menu, index) => {
    add(menu, 0, index + 1);
  });
  return menus;
}

export function linkMenu(id: number, name: string, path: string, componentUrl: string, parentId = 0): MenuDto {
  return {
    Id: id,
    Name: name,
    ParentId: parentId,
    Url: path,
    Router: JSON.stringify({ path, componentUrl }),
    MenuType: 1,
    Icon: '',
    Remarks: '',
    Sn: id,
  };
}
