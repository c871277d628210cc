import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ForbiddenResult } from '../../components/forbidden-result';
import { myInfoQueryOptions } from '../../lib/current-user';
import { isRouteAllowed } from '../../lib/menu-model';
import { ROUTE_CATALOG } from '../../lib/route-catalog';
import { useUserMenu } from '../../lib/user-menu';
import type { AppRouteDef, AppRouteId } from '../routes';

/**
 * Pages an administrator may always open, even when the menu no longer leads there: without
 * them, deleting the menu set's own menu item would lock every administrator out of menus.
 */
const ADMIN_RESCUE: readonly AppRouteId[] = ['menu', 'subMenu'];

/**
 * A signed-in route: the menu check (a page opens when the user's menu leads to it, spec §2;
 * home and the user's own information always), then the page (children).
 */
export function RoutePage({ def, children, viaMenu = false }: { def: AppRouteDef; children: ReactNode; viaMenu?: boolean }) {
  const { data: menus = [] } = useUserMenu();
  const { data: user } = useQuery(myInfoQueryOptions());
  if (ROUTE_CATALOG[def.id].platformOnly) return user?.IsPlatformAdmin === true ? children : <ForbiddenResult />;
  const allowed = viaMenu || isRouteAllowed(def.id, menus) || (user?.IsAdmin === true && ADMIN_RESCUE.includes(def.id));
  if (!allowed) return <ForbiddenResult />;
  return children;
}
