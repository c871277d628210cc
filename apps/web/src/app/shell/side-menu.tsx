import { useMemo, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { ApartmentOutlined } from '@ant-design/icons';
import { useQueries } from '@tanstack/react-query';
import { Link, useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { menuIconElement } from '../../components/menu-icon';
import { buildMenuTree, isLinkMenu, menuLabel, menuTrail, parseRouter, type MenuDto } from '../../lib/menu-model';
import { subMenuQueryOptions, useUserMenu } from '../../lib/user-menu';
import { useCurrentUser } from '../../lib/current-user';
import { ROUTE_CATALOG } from '../../lib/route-catalog';
import { currentHandle } from '../route-handle';
import type { AppRouteId } from '../routes';

type Item = NonNullable<MenuProps['items']>[number];

interface SideMenuProps {
  collapsed?: boolean;
  onNavigate?: () => void;
}

const TENANTS_KEY = 'platform:tenants';

const bySn = (a: MenuDto, b: MenuDto) => a.Sn - b.Sn || a.Id - b.Id;

/** The current page's route id, when it is one of the console's routes. */
export function useCurrentRouteId(): AppRouteId | undefined {
  const handle = currentHandle(useMatches());
  if (!handle || handle.routeId === 'login' || handle.routeId === 'register' || handle.routeId === 'notFound') return undefined;
  return handle.routeId;
}

/**
 * The side navigation, built from the user's server menu (spec §2): a link menu (type 1) leads
 * to its router path; a navigation menu (type 0) fetches its sub-menu when opened, showing
 * 'sub menu loading' until it arrives and 'no sub menu' when it is empty.
 */
export function SideMenu({ collapsed = false, onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const routeId = useCurrentRouteId();
  const { data: menus = [] } = useUserMenu();
  const { data: user } = useCurrentUser();
  const tree = useMemo(() => buildMenuTree(menus), [menus]);
  const trail = useMemo(() => menuTrail(menus, location.pathname, routeId), [menus, location.pathname, routeId]);
  const trailGroups = trail.filter((menu) => !isLinkMenu(menu)).map((menu) => String(menu.Id));
  const trailKey = trailGroups.join(',');

  // Groups open as the user opens them; the current page's groups open when it changes.
  const [openKeys, setOpenKeys] = useState<string[]>(trailGroups);
  const [openedFor, setOpenedFor] = useState(trailKey);
  if (openedFor !== trailKey) {
    setOpenedFor(trailKey);
    setOpenKeys((keys) => [...new Set([...keys, ...trailGroups])]);
  }

  const openIds = openKeys.map(Number).filter((id) => Number.isInteger(id) && id > 0);
  const subMenus = useQueries({ queries: openIds.map((id) => subMenuQueryOptions(id)) });
  const subOf = new Map(openIds.map((id, index) => [id, subMenus[index]]));

  const toItem = (menu: MenuDto, depth: number): Item => {
    const icon = depth === 0 || menu.Icon ? menuIconElement(menu.Icon) : undefined;
    const label = menuLabel(menu, t);
    const key = String(menu.Id);
    if (isLinkMenu(menu)) {
      const router = parseRouter(menu.Router);
      return {
        key,
        icon,
        disabled: !router,
        label: router ? (
          <Link to={router.path} onClick={onNavigate}>
            {label}
          </Link>
        ) : (
          label
        ),
      };
    }
    const sub = subOf.get(menu.Id);
    let children: Item[];
    if (sub?.data) {
      children =
        sub.data.length > 0
          ? [...sub.data].sort(bySn).map((child) => toItem(child, depth + 1))
          : [{ key: `${key}:empty`, disabled: true, label: t('shell.noSubMenu') }];
    } else if (sub?.isError) {
      children = [{ key: `${key}:error`, disabled: true, label: t('shell.subMenuFailed') }];
    } else {
      children = [{ key: `${key}:loading`, disabled: true, label: <span role="status">{t('shell.subMenuLoading')}</span> }];
    }
    return { key, icon, label, children };
  };

  const current = trail.at(-1);
  // The platform administrator's own screen is no menu of any group: it follows the group's menu.
  const platformItems: Item[] = user?.IsPlatformAdmin
    ? [
        {
          key: TENANTS_KEY,
          icon: <ApartmentOutlined />,
          label: (
            <Link to={ROUTE_CATALOG.tenants.path} onClick={onNavigate}>
              {t('routes.tenants')}
            </Link>
          ),
        },
      ]
    : [];
  const selected = routeId === 'tenants' ? [TENANTS_KEY] : current && isLinkMenu(current) ? [String(current.Id)] : [];
  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      selectedKeys={selected}
      items={[...tree.map((node) => toItem(node.menu, 0)), ...platformItems]}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
    />
  );
}
