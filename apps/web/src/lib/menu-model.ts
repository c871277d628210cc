/**
 * Server-delivered menus (spec §2, §3 System menu) as the console reads them: the stored router
 * definition, the tree, the label shown for an item, which routes a menu allows and where a
 * path sits in the menu. Pure functions; the fetching lives in lib/user-menu.ts.
 */
import { matchPath } from 'react-router';
import { MENU_TYPE, routerDefinition, type MenuDto, type RouterDefinition } from '@sluice/shared/menu.schema';
import type { MessageKey } from './i18n';
import { APP_ROUTE_IDS, ROUTE_CATALOG, routeIdForComponent, type AppRouteId } from './route-catalog';

export type { MenuDto, RouterDefinition };

/** A menu's Router (a JSON string) read as { path, componentUrl }, or undefined when absent or broken. */
export function parseRouter(raw: string | null | undefined): RouterDefinition | undefined {
  if (!raw || raw.trim() === '') return undefined;
  try {
    const parsed = routerDefinition.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function isLinkMenu(menu: Pick<MenuDto, 'MenuType'>): boolean {
  return menu.MenuType === MENU_TYPE.link;
}

export interface MenuTreeNode {
  menu: MenuDto;
  router: RouterDefinition | undefined;
  children: MenuTreeNode[];
}

const bySn = (a: MenuDto, b: MenuDto) => a.Sn - b.Sn || a.Id - b.Id;

/**
 * The flat list as a tree by ParentId, siblings by Sn. An item whose parent is not in the list
 * (not delivered to this user) becomes a root, so nothing granted is lost.
 */
export function buildMenuTree(menus: readonly MenuDto[]): MenuTreeNode[] {
  const nodes = new Map<number, MenuTreeNode>();
  for (const menu of [...menus].sort(bySn)) nodes.set(menu.Id, { menu, router: parseRouter(menu.Router), children: [] });
  const roots: MenuTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = inCycle(node.menu.Id, nodes) ? undefined : nodes.get(node.menu.ParentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Whether following ParentId from a menu comes back round (bad data): such menus show as roots. */
function inCycle(id: number, nodes: Map<number, MenuTreeNode>): boolean {
  const seen = new Set<number>();
  for (let node = nodes.get(id); node; node = nodes.get(node.menu.ParentId)) {
    // The first menu seen twice closes the loop: the menu is in it when that is the menu itself.
    if (seen.has(node.menu.Id)) return node.menu.Id === id;
    seen.add(node.menu.Id);
  }
  return false;
}

/** The console route whose path pattern matches a concrete path ('/common/notice/list/0/0' → noticeCenter). */
export function routeIdForPath(path: string): AppRouteId | undefined {
  const pathname = path.split(/[?#]/, 1)[0] ?? path;
  return APP_ROUTE_IDS.find((id) => matchPath(ROUTE_CATALOG[id].path, pathname) !== null);
}

/** The seeded navigation menus (DEFAULT_MENUS names) and their translated labels. */
const DEFAULT_GROUP_LABELS: Record<string, MessageKey> = {
  'user manager': 'menu.userManager',
  'jurisdiction manager': 'menu.jurisdictionManager',
  'notice manager': 'menu.noticeManager',
  'system configure': 'menu.systemConfigure',
  'device manager': 'menu.deviceManager',
  'field records': 'menu.fieldRecords',
};

/**
 * The catalog key of a menu's label: a link to a known route shows the console's own title;
 * a seeded navigation menu its translated name. Undefined: show the stored Name.
 */
export function menuLabelKey(menu: Pick<MenuDto, 'Name' | 'Router' | 'MenuType'>): MessageKey | undefined {
  if (isLinkMenu(menu)) {
    const router = parseRouter(menu.Router);
    const id = router ? routeIdForPath(router.path) : undefined;
    if (!id) return undefined;
    return ROUTE_CATALOG[id].menuLabelKey ?? `routes.${id}`;
  }
  return DEFAULT_GROUP_LABELS[menu.Name.trim().toLowerCase()];
}

/** The label of a menu in the current language, through t(). */
export function menuLabel(menu: Pick<MenuDto, 'Name' | 'Router' | 'MenuType'>, t: (key: MessageKey) => string): string {
  const key = menuLabelKey(menu);
  return key ? t(key) : menu.Name;
}

/** The link menus of a list with a valid router definition. */
export function linkRouters(menus: readonly MenuDto[]): { menu: MenuDto; router: RouterDefinition }[] {
  return menus.flatMap((menu) => {
    if (!isLinkMenu(menu)) return [];
    const router = parseRouter(menu.Router);
    return router ? [{ menu, router }] : [];
  });
}

/**
 * Whether the user's menu lets them open a console route: home and their own information
 * always; otherwise a link menu must lead to the route (or to its parent page).
 */
export function isRouteAllowed(routeId: AppRouteId, menus: readonly MenuDto[]): boolean {
  const entry = ROUTE_CATALOG[routeId];
  if (entry.alwaysAllowed) return true;
  const target = entry.parent ?? routeId;
  return linkRouters(menus).some(({ router }) => routeIdForPath(router.path) === target);
}

/** The link menu (with its router) whose own path is this path, for run-time routes. */
export function menuForPath(
  menus: readonly MenuDto[],
  pathname: string,
): { menu: MenuDto; router: RouterDefinition } | undefined {
  return linkRouters(menus).find(
    ({ router }) => matchPath({ path: router.path.split('?', 1)[0] ?? router.path, end: true }, pathname) !== null,
  );
}

/**
 * Where a path sits in the menu: the chain of menus from the root to the link that leads
 * there, preferring a link to this exact path, else one leading to the same console route.
 */
export function menuTrail(menus: readonly MenuDto[], pathname: string, routeId?: AppRouteId): MenuDto[] {
  const links = linkRouters(menus);
  const exact = menuForPath(menus, pathname);
  const target = routeId ? (ROUTE_CATALOG[routeId].parent ?? routeId) : undefined;
  const found = exact ?? (target ? links.find(({ router }) => routeIdForPath(router.path) === target) : undefined);
  if (!found) return [];
  const byId = new Map(menus.map((m) => [m.Id, m]));
  const trail: MenuDto[] = [];
  const seen = new Set<number>();
  for (let m: MenuDto | undefined = found.menu; m && !seen.has(m.Id); m = byId.get(m.ParentId)) {
    seen.add(m.Id);
    trail.unshift(m);
  }
  return trail;
}

/** The component url a link menu names, resolved to a console route (undefined: unknown component). */
export function routeIdForMenu(router: RouterDefinition): AppRouteId | undefined {
  return routeIdForComponent(router.componentUrl);
}
