/** Which menus a user sees: an administrator all of the group's, others those of their roles, with their parents. */
import type { MenuDto } from '@sluice/shared/menu.schema';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { MenuRow, MenusRepository } from './menus.repository.ts';

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

export class MenusService {
  readonly repository: MenusRepository;

  constructor(repository: MenusRepository) {
    this.repository = repository;
  }

  async groupMenus(groupId: number): Promise<MenuDto[]> {
    return (await this.repository.groupMenus(groupId)).map(toMenuDto);
  }

  async menusOf(user: CurrentUser): Promise<MenuDto[]> {
    const all = await this.repository.groupMenus(user.groupId);
    if (user.isAdmin) return all.map(toMenuDto);
    const granted = await this.repository.grantedTo(user.id);
    const byId = new Map(all.map((m) => [m.id, m]));
    const visible = new Set<number>();
    for (const menuId of granted) {
      // A granted menu brings its navigation parents, so it can be reached in the tree.
      for (let m = byId.get(menuId); m && !visible.has(m.id); m = byId.get(m.parent_id)) visible.add(m.id);
    }
    return all.filter((m) => visible.has(m.id)).map(toMenuDto);
  }
}
