import { describe, expect, it } from 'vitest';
import { seededMenus, linkMenu } from '../test/menus';
import { buildMenuTree, isRouteAllowed, menuLabelKey, menuTrail, parseRouter, routeIdForPath } from './menu-model';
import { mayOperate } from './operates';
import { backTarget, recordVisit } from './visit-history';

const navigation = (Id: number, Name: string, ParentId = 0) => ({
  ...linkMenu(Id, Name, '', '', ParentId),
  Router: '',
  MenuType: 0 as const,
});

describe('server menus', () => {
  it('reads the stored router, and nothing from a broken one', () => {
    expect(parseRouter('{"path":"/user/list","componentUrl":"user/list"}')).toEqual({
      path: '/user/list',
      componentUrl: 'user/list',
    });
    expect(parseRouter('{path:')).toBeUndefined();
    expect(parseRouter('{"path":"no-slash","componentUrl":"x"}')).toBeUndefined();
    expect(parseRouter('')).toBeUndefined();
  });

  it('builds the tree by parent and order, and survives a parent loop', () => {
    const tree = buildMenuTree(seededMenus());
    expect(tree.map((node) => node.menu.Name)).toEqual([
      'Home',
      'Projects',
      'Stations',
      'Devices',
      'User Manager',
      'Jurisdiction Manager',
      'Notice Manager',
      'Field Records',
      'System Configure',
      'Device Manager',
    ]);
    expect(tree[4]?.children.map((node) => node.menu.Name)).toEqual(['User list', 'Client list', 'Operations staff']);
    const looped = buildMenuTree([navigation(1, 'A', 2), navigation(2, 'B', 1), linkMenu(3, 'C', '/c', 'c', 1)]);
    expect(looped.map((node) => node.menu.Name)).toEqual(['A', 'B']);
    expect(looped[0]?.children.map((node) => node.menu.Name)).toEqual(['C']);
  });

  it('labels known routes and seeded groups from the catalogs, others by their name', () => {
    const [home, , , , userManager] = seededMenus();
    expect(home && menuLabelKey(home)).toBe('menu.home');
    expect(userManager && menuLabelKey(userManager)).toBe('menu.userManager');
    expect(menuLabelKey(linkMenu(5, 'Notices', '/common/notice/list/0/0', 'common/notice/list'))).toBe('menu.noticeCenter');
    expect(menuLabelKey(linkMenu(6, 'Reports', '/reports', 'reports'))).toBeUndefined();
    expect(menuLabelKey(navigation(7, 'Reports'))).toBeUndefined();
  });

  it('allows a route when a link menu leads to it; home and own information always', () => {
    const operator = seededMenus({ operatorOnly: true });
    expect(isRouteAllowed('stations', operator)).toBe(true);
    expect(isRouteAllowed('noticeCenter', operator)).toBe(true);
    expect(isRouteAllowed('userList', operator)).toBe(false);
    expect(isRouteAllowed('home', [])).toBe(true);
    expect(isRouteAllowed('userInfo', [])).toBe(true);
    // Sub menu settings are reached from the menu set.
    expect(isRouteAllowed('subMenu', seededMenus())).toBe(true);
    expect(isRouteAllowed('subMenu', operator)).toBe(false);
    expect(routeIdForPath('/common/notice/list/3/1')).toBe('noticeCenter');
  });

  it('finds where a page sits in the menu', () => {
    const menus = seededMenus();
    expect(menuTrail(menus, '/user/clientList').map((menu) => menu.Name)).toEqual(['User Manager', 'Client list']);
    expect(menuTrail(menus, '/common/notice/list/5/1', 'noticeCenter').map((menu) => menu.Name)).toEqual([
      'Notice Manager',
      'Notice center',
    ]);
    expect(menuTrail(menus, '/sys/subMenu/4', 'subMenu').map((menu) => menu.Name)).toEqual(['System Configure', 'Menu set']);
  });
});

describe('operates', () => {
  const user = (fields: Record<string, unknown>) => ({ ...fields }) as unknown as Parameters<typeof mayOperate>[0];
  it('lets administrators do everything, others what their roles hold', () => {
    expect(mayOperate(user({ IsAdmin: true, Operates: [] }), 'menu.manage')).toBe(true);
    expect(mayOperate(user({ IsAdmin: false, Operates: ['client.view'] }), 'client.manage')).toBe(false);
    expect(mayOperate(user({ IsAdmin: false, Operates: ['client.view', 'client.manage'] }), 'client.manage')).toBe(true);
    expect(mayOperate(undefined, 'client.view')).toBe(false);
  });
});

describe('visited-path history', () => {
  it('leads Back to the page this one was opened from, with its query string', () => {
    recordVisit('/sys/menu');
    recordVisit('/sys/menu?q=user');
    recordVisit('/sys/subMenu/5');
    expect(backTarget('/sys/subMenu/5', '/sys/menu')).toBe('/sys/menu?q=user');
    recordVisit('/user/list');
    recordVisit('/sys/subMenu/6');
    expect(backTarget('/sys/subMenu/6', '/sys/menu', (path) => path.startsWith('/sys/'))).toBe('/sys/menu');
  });
});
