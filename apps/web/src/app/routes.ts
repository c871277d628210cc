/**
 * The route table of spec §2 as data: paths, titles in both languages, the ignoreAuth flag,
 * which pages are built (lazy loaders) and the side menu. Server-delivered menus (menu type 1
 * items with stored router definitions) can later be merged into `appRoutes` and `menuTree`.
 */
import type { ComponentType } from 'react';
import type { Catalog } from '../locales/en-US';
import { catalogs, LANGUAGES, type Language, type MessageKey } from '../lib/i18n';
import { HOME_PATH, USER_INFO_PATH } from '../lib/paths';

export type RouteTitle = keyof Catalog['routes'];

export interface RouteMeta {
  /** Catalog key of the title, shown through t(). */
  titleKey: `routes.${RouteTitle}`;
  /** The title in each language (spec: route meta carries Chinese and English titles). */
  title: Record<Language, string>;
  /** True only for routes that need no sign-in (login and not-found). */
  ignoreAuth: boolean;
  /** Only administrators may open it (the menu hides it from others). */
  adminOnly: boolean;
}

export type PageLoader = () => Promise<ComponentType>;

export interface AppRouteDef {
  id: RouteTitle;
  path: string;
  meta: RouteMeta;
  /** Loads the built page; without one the route shows the generic placeholder page. */
  load?: PageLoader;
}

function meta(id: RouteTitle, options: { ignoreAuth?: boolean; adminOnly?: boolean } = {}): RouteMeta {
  const title = Object.fromEntries(LANGUAGES.map((lang) => [lang, catalogs[lang].routes[id]])) as Record<Language, string>;
  return { titleKey: `routes.${id}`, title, ignoreAuth: options.ignoreAuth ?? false, adminOnly: options.adminOnly ?? false };
}

function route(id: RouteTitle, path: string, options: { adminOnly?: boolean; load?: PageLoader } = {}): AppRouteDef {
  const def: AppRouteDef = { id, path, meta: meta(id, { adminOnly: options.adminOnly }) };
  if (options.load) def.load = options.load;
  return def;
}

const admin = { adminOnly: true };


export const loginRoute = { path: '/login', meta: meta('login', { ignoreAuth: true }) };
export const notFoundRoute = { paths: ['/notFount', '/notFound', '*'], meta: meta('notFound', { ignoreAuth: true }) };

/** Parents whose empty child path leads to the not-found page (spec §2). */
export const NOT_FOUND_PARENTS = ['/sys', '/jurisdiction', '/user', '/device'];

/** Every route that needs a session. */
export const appRoutes: AppRouteDef[] = [
  route('home', '/common/home/:activeTitle?/:activeItemId?', {
    load: () => import('../features/home/pages/home-page').then((m) => m.HomePage),
  }),
  route('userInfo', USER_INFO_PATH, {
    load: () => import('../features/account/pages/user-info-page').then((m) => m.UserInfoPage),
  }),
  route('projects', '/common/app/project', { load: () => import('../features/sites/pages/project-list-page').then((m) => m.ProjectListPage) }),
  route('stations', '/common/app/station', { load: () => import('../features/sites/pages/project-list-page').then((m) => m.StationListPage) }),
  route('devices', '/common/app/device', { load: () => import('../features/sites/pages/device-list-page').then((m) => m.DeviceListPage) }),
  route('noticeCenter', '/common/notice/list/:id/:status'),
  route('dataDefine', '/sys/dataDefine', admin),
  route('dataDefineWarnCode', '/sys/dataDefineWarnCode', admin),
  route('category', '/sys/category', admin),
  route('deviceType', '/sys/devicetype', admin),
  route('appFile', '/sys/appfile', admin),
  route('warnType', '/sys/warntype', admin),
  route('warnCode', '/sys/warncode', admin),
  route('menu', '/sys/menu', admin),
  route('subMenu', '/sys/subMenu/:id', admin),
  route('areaSet', '/sys/areaset', { ...admin, load: () => import('../features/sites/pages/area-set-page').then((m) => m.AreaSetPage) }),
  route('simboss', '/sys/simboss', admin),
  route('boxData', '/sys/boxData', admin),
  route('permissionModule', '/jurisdiction/permission/module', admin),
  route('role', '/jurisdiction/role', admin),
  route('userList', '/user/list', admin),
  route('clientList', '/user/clientList', admin),
  route('principals', '/user/principals', admin),
  route('recycleBin', '/device/recyclebin', { ...admin, load: () => import('../features/sites/pages/recycle-bin-page').then((m) => m.RecycleBinPage) }),
];

export interface MenuLeaf {
  kind: 'item';
  key: string;
  routeId: RouteTitle;
  to: string;
  labelKey: MessageKey;
}

export interface MenuGroup {
  kind: 'group';
  key: string;
  labelKey: MessageKey;
  adminOnly: boolean;
  children: MenuLeaf[];
}

export type MenuNode = MenuLeaf | MenuGroup;

function item(routeId: RouteTitle, to: string, labelKey: MessageKey = `routes.${routeId}`): MenuLeaf {
  return { kind: 'item', key: to, routeId, to, labelKey };
}

/** The notice center's default filter: every project (id 0), every state (0). */
export const NOTICE_CENTER_PATH = '/common/notice/list/0/0';

/** The side menu of spec §2. Administrator-only groups are hidden from other users. */
export const menuTree: MenuNode[] = [
  item('home', HOME_PATH, 'menu.home'),
  item('projects', '/common/app/project', 'menu.projects'),
  item('stations', '/common/app/station', 'menu.stations'),
  item('devices', '/common/app/device', 'menu.devices'),
  {
    kind: 'group',
    key: 'notice',
    labelKey: 'menu.noticeManager',
    adminOnly: false,
    children: [item('noticeCenter', NOTICE_CENTER_PATH, 'menu.noticeCenter')],
  },
  {
    kind: 'group',
    key: 'user',
    labelKey: 'menu.userManager',
    adminOnly: true,
    children: [item('userList', '/user/list'), item('clientList', '/user/clientList'), item('principals', '/user/principals')],
  },
  {
    kind: 'group',
    key: 'jurisdiction',
    labelKey: 'menu.jurisdictionManager',
    adminOnly: true,
    children: [item('permissionModule', '/jurisdiction/permission/module'), item('role', '/jurisdiction/role')],
  },
  {
    kind: 'group',
    key: 'sys',
    labelKey: 'menu.systemConfigure',
    adminOnly: true,
    children: [
      item('dataDefine', '/sys/dataDefine'),
      item('dataDefineWarnCode', '/sys/dataDefineWarnCode'),
      item('category', '/sys/category'),
      item('deviceType', '/sys/devicetype'),
      item('appFile', '/sys/appfile'),
      item('warnType', '/sys/warntype'),
      item('warnCode', '/sys/warncode'),
      item('menu', '/sys/menu'),
      item('areaSet', '/sys/areaset'),
      item('simboss', '/sys/simboss'),
      item('boxData', '/sys/boxData'),
    ],
  },
  {
    kind: 'group',
    key: 'device',
    labelKey: 'menu.deviceManager',
    adminOnly: true,
    children: [item('recycleBin', '/device/recyclebin')],
  },
];

/** The menu a user sees. */
export function visibleMenu(isAdmin: boolean): MenuNode[] {
  return menuTree.filter((node) => node.kind === 'item' || !node.adminOnly || isAdmin);
}

/** Where a route sits in the menu: its group (if any) and its item. */
export function menuTrail(routeId: RouteTitle): { group?: MenuGroup; item?: MenuLeaf } {
  for (const node of menuTree) {
    if (node.kind === 'item') {
      if (node.routeId === routeId) return { item: node };
      continue;
    }
    const child = node.children.find((leaf) => leaf.routeId === routeId);
    if (child) return { group: node, item: child };
  }
  // Routes outside the menu (sub menu settings) sit under their section's group.
  if (routeId === 'subMenu') return { group: menuTree.find((n): n is MenuGroup => n.kind === 'group' && n.key === 'sys') };
  return {};
}
