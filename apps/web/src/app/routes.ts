/**
 * The route table of spec §2 as data: paths, titles in both languages and the ignoreAuth flag
 * (from lib/route-catalog.ts), and which pages are built (lazy loaders). It is also the
 * component registry of server menus: a menu item's Router names a page by its componentUrl.
 * Which routes a user may open, and the side menu, come from the user's server menu.
 */
import type { ComponentType } from 'react';
import { withDeviceTypesCatalog } from '../lib/feature-catalogs';
import { catalogs, LANGUAGES, type Language } from '../lib/i18n';
import { APP_ROUTE_IDS, ROUTE_CATALOG, routeIdForComponent, type AppRouteId, type RouteTitle } from '../lib/route-catalog';

export type { AppRouteId, RouteTitle };

export interface RouteMeta {
  /** Catalog key of the title, shown through t(). */
  titleKey: `routes.${RouteTitle}`;
  /** The title in each language (spec: route meta carries Chinese and English titles). */
  title: Record<Language, string>;
  /** True only for routes that need no sign-in (login and not-found). */
  ignoreAuth: boolean;
  /** The page sets the document title itself (run-time routes of server menus). */
  titleFromPage?: boolean;
}

export type PageLoader = () => Promise<ComponentType>;

export interface AppRouteDef {
  id: AppRouteId;
  path: string;
  /** The key server menus use for this page. */
  componentUrl: string;
  meta: RouteMeta;
  /** Loads the page. */
  load: PageLoader;
}

function meta(id: RouteTitle, options: { ignoreAuth?: boolean; titleFromPage?: boolean } = {}): RouteMeta {
  const title = Object.fromEntries(LANGUAGES.map((lang) => [lang, catalogs[lang].routes[id]])) as Record<Language, string>;
  const result: RouteMeta = { titleKey: `routes.${id}`, title, ignoreAuth: options.ignoreAuth ?? false };
  if (options.titleFromPage) result.titleFromPage = true;
  return result;
}

export const loginRoute = { path: '/login', meta: meta('login', { ignoreAuth: true }) };
/** Self-registration (spec §2: with '/' and '/login', a path that needs no session at start). */
export const registerRoute = { path: '/register', meta: meta('register', { ignoreAuth: true }) };
export const notFoundRoute = { paths: ['/notFount', '/notFound'], meta: meta('notFound', { ignoreAuth: true }) };
/** Any other path: a run-time route of the user's menu, else not found (without sign-in, not found at once). */
export const catchAllRoute = { path: '*', meta: meta('notFound', { ignoreAuth: true, titleFromPage: true }) };

/** Parents whose empty child path leads to the not-found page (spec §2). */
export const NOT_FOUND_PARENTS = ['/sys', '/jurisdiction', '/user', '/device'];

/** Every route's page: no route a user can reach shows a placeholder. */
const loaders: Record<AppRouteId, PageLoader> = {
  home: () => import('./pages/home-page').then((m) => m.HomePage),
  userInfo: () => import('../features/account/pages/user-info-page').then((m) => m.UserInfoPage),
  tenants: () => import('../features/tenants/pages/tenants-page').then((m) => m.TenantsPage),
  userList: () => import('../features/users/pages/user-list-page').then((m) => m.UserListPage),
  principals: () => import('../features/users/pages/user-list-page').then((m) => m.PrincipalsPage),
  clientList: () => import('../features/clients/pages/client-list-page').then((m) => m.ClientListPage),
  role: () => import('../features/roles/pages/role-list-page').then((m) => m.RoleListPage),
  permissionModule: () => import('../features/roles/pages/permission-module-page').then((m) => m.PermissionModulePage),
  menu: () => import('../features/menus/pages/menu-page').then((m) => m.MenuPage),
  subMenu: () => import('../features/menus/pages/sub-menu-page').then((m) => m.SubMenuPage),
  projects: () => import('../features/sites/pages/project-list-page').then((m) => m.ProjectListPage),
  stations: () => import('../features/sites/pages/project-list-page').then((m) => m.StationListPage),
  devices: () => import('../features/devices/pages/device-list-page').then((m) => m.DeviceListPage),
  recycleBin: () => import('../features/recycle-bin/pages/recycle-bin-page').then((m) => m.RecycleBinPage),
  noticeCenter: () => import('../features/notices/pages/notice-center-page').then((m) => m.NoticeCenterPage),
  areaSet: () => import('../features/regions/pages/area-set-page').then((m) => m.AreaSetPage),
  dataDefine: withDeviceTypesCatalog(() =>
    import('../features/data-defines/pages/data-define-page').then((m) => m.DataDefinePage),
  ),
  category: withDeviceTypesCatalog(() => import('../features/data-defines/pages/category-page').then((m) => m.CategoryPage)),
  dataDefineWarnCode: withDeviceTypesCatalog(() =>
    import('../features/data-defines/pages/data-define-warn-code-page').then((m) => m.DataDefineWarnCodePage),
  ),
  deviceType: withDeviceTypesCatalog(() =>
    import('../features/device-types/pages/device-type-page').then((m) => m.DeviceTypePage),
  ),
  warnType: withDeviceTypesCatalog(() => import('../features/warn-config/pages/warn-type-page').then((m) => m.WarnTypePage)),
  warnCode: withDeviceTypesCatalog(() => import('../features/warn-config/pages/warn-code-page').then((m) => m.WarnCodePage)),
  appFile: withDeviceTypesCatalog(() => import('../features/app-versions/pages/app-file-page').then((m) => m.AppFilePage)),
  simboss: withDeviceTypesCatalog(() => import('../features/sim/pages/sim-page').then((m) => m.SimPage)),
  notifyChannel: () => import('../features/notifications/pages/notify-channel-page').then((m) => m.NotifyChannelPage),
  notifyRule: () => import('../features/notifications/pages/notify-rule-page').then((m) => m.NotifyRulePage),
  notifyLog: () => import('../features/notifications/pages/notify-log-page').then((m) => m.NotifyLogPage),
  boxData: () => import('../features/box-data/pages/box-data-page').then((m) => m.BoxDataPage),
  hj212: () => import('../features/hj212/pages/hj212-page').then((m) => m.Hj212Page),
  audit: () => import('../features/audit/pages/audit-page').then((m) => m.AuditPage),
  waterQuality: () => import('../features/records/pages/records-pages').then((m) => m.WaterQualityPage),
  repairs: () => import('../features/records/pages/records-pages').then((m) => m.RepairsPage),
  inspections: () => import('../features/records/pages/records-pages').then((m) => m.InspectionsPage),
  monthlyReport: () => import('../features/records/pages/station-report-page').then((m) => m.StationReportPage),
  dischargeStandards: () => import('../features/records/pages/records-pages').then((m) => m.DischargeStandardsPage),
};

/** Every route that needs a session. */
export const appRoutes: AppRouteDef[] = APP_ROUTE_IDS.map((id) => {
  const entry = ROUTE_CATALOG[id];
  return { id, path: entry.path, componentUrl: entry.componentUrl, meta: meta(id), load: loaders[id] };
});

/** The page a server menu's componentUrl names, if the console has it. */
export function routeByComponent(componentUrl: string): AppRouteDef | undefined {
  const id = routeIdForComponent(componentUrl);
  return id ? appRoutes.find((def) => def.id === id) : undefined;
}
