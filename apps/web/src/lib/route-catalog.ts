/**
 * What the console knows about each signed-in route, as data: its path pattern, the component
 * url that server menus name it by (spec §2: a menu's Router is { path, componentUrl }), the
 * catalog key of its side-menu label, and whether every signed-in user may open it.
 *
 * app/routes.ts attaches the page loaders; lib and features use this for labels and checks.
 */
import type { Catalog } from '../locales/en-US';
import type { MessageKey } from './i18n';
import { USER_INFO_PATH } from './paths';

export type RouteTitle = keyof Catalog['routes'];
export type AppRouteId = Exclude<RouteTitle, 'login' | 'register' | 'notFound'>;

export interface RouteEntry {
  path: string;
  /** The component url server menus use for this page (the registry key). */
  componentUrl: string;
  /** The side-menu label, when it differs from the route title. */
  menuLabelKey?: MessageKey;
  /** Always allowed to a signed-in user, whatever the menu (home, own user information). */
  alwaysAllowed?: boolean;
  /** A page reached from another page (not from the menu): allowed when its parent is. */
  parent?: AppRouteId;
  /** The platform administrator's page (tenants): open to them whatever the group's menu, to no one else. */
  platformOnly?: boolean;
}

export const ROUTE_CATALOG: Record<AppRouteId, RouteEntry> = {
  home: {
    path: '/common/home/:activeTitle?/:activeItemId?',
    componentUrl: 'home',
    menuLabelKey: 'menu.home',
    alwaysAllowed: true,
  },
  userInfo: { path: USER_INFO_PATH, componentUrl: 'common/user/info', alwaysAllowed: true },
  projects: { path: '/common/app/project', componentUrl: 'app/project', menuLabelKey: 'menu.projects' },
  stations: { path: '/common/app/station', componentUrl: 'app/station', menuLabelKey: 'menu.stations' },
  devices: { path: '/common/app/device', componentUrl: 'app/device', menuLabelKey: 'menu.devices' },
  noticeCenter: {
    path: '/common/notice/list/:id/:status',
    componentUrl: 'common/notice/list',
    menuLabelKey: 'menu.noticeCenter',
  },
  dataDefine: { path: '/sys/dataDefine', componentUrl: 'sys/dataDefine' },
  dataDefineWarnCode: { path: '/sys/dataDefineWarnCode', componentUrl: 'sys/dataDefineWarnCode' },
  category: { path: '/sys/category', componentUrl: 'sys/category' },
  deviceType: { path: '/sys/devicetype', componentUrl: 'sys/devicetype' },
  appFile: { path: '/sys/appfile', componentUrl: 'sys/appfile' },
  warnType: { path: '/sys/warntype', componentUrl: 'sys/warntype' },
  warnCode: { path: '/sys/warncode', componentUrl: 'sys/warncode' },
  menu: { path: '/sys/menu', componentUrl: 'sys/menu' },
  subMenu: { path: '/sys/subMenu/:id', componentUrl: 'sys/subMenu', parent: 'menu' },
  areaSet: { path: '/sys/areaset', componentUrl: 'sys/areaset' },
  simboss: { path: '/sys/simboss', componentUrl: 'sys/simboss' },
  notifyChannel: { path: '/sys/notifyChannel', componentUrl: 'sys/notifyChannel' },
  notifyRule: { path: '/sys/notifyRule', componentUrl: 'sys/notifyRule' },
  notifyLog: { path: '/sys/notifyLog', componentUrl: 'sys/notifyLog' },
  boxData: { path: '/sys/boxData', componentUrl: 'sys/boxData' },
  hj212: { path: '/sys/hj212', componentUrl: 'sys/hj212' },
  audit: { path: '/sys/audit', componentUrl: 'sys/audit' },
  permissionModule: { path: '/jurisdiction/permission/module', componentUrl: 'jurisdiction/permission/module' },
  role: { path: '/jurisdiction/role', componentUrl: 'jurisdiction/role' },
  userList: { path: '/user/list', componentUrl: 'user/list' },
  clientList: { path: '/user/clientList', componentUrl: 'user/clientList' },
  principals: { path: '/user/principals', componentUrl: 'user/principals' },
  recycleBin: { path: '/device/recyclebin', componentUrl: 'device/recyclebin' },
  tenants: { path: '/sys/tenants', componentUrl: 'sys/tenants', platformOnly: true },
  waterQuality: { path: '/records/quality', componentUrl: 'records/quality' },
  repairs: { path: '/records/repair', componentUrl: 'records/repair' },
  inspections: { path: '/records/poll', componentUrl: 'records/poll' },
  monthlyReport: { path: '/records/report', componentUrl: 'records/report' },
  dischargeStandards: { path: '/records/standard', componentUrl: 'records/standard' },
};

export const APP_ROUTE_IDS = Object.keys(ROUTE_CATALOG) as AppRouteId[];

/** The route registered under a component url, if any. */
export function routeIdForComponent(componentUrl: string): AppRouteId | undefined {
  const wanted = componentUrl.replace(/^\/+|\/+$/g, '').toLowerCase();
  return APP_ROUTE_IDS.find((id) => ROUTE_CATALOG[id].componentUrl.toLowerCase() === wanted);
}

/** Every component url a menu item may name (for the menu editor's suggestions). */
export const KNOWN_COMPONENT_URLS = APP_ROUTE_IDS.map((id) => ROUTE_CATALOG[id].componentUrl);
