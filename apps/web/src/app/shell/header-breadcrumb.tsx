import { Breadcrumb } from 'antd';
import { Link, useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isLinkMenu, menuLabel, menuTrail, parseRouter } from '../../lib/menu-model';
import { HOME_PATH } from '../../lib/paths';
import { ROUTE_CATALOG } from '../../lib/route-catalog';
import { useUserMenu } from '../../lib/user-menu';
import { useCurrentPageName } from '../../lib/page-name';
import { currentHandle } from '../route-handle';

/** Home › menu group › page, from where the page sits in the user's menu, then the record the page shows. */
export function HeaderBreadcrumb() {
  const { t } = useTranslation();
  const location = useLocation();
  const handle = currentHandle(useMatches());
  const { data: menus = [] } = useUserMenu();
  const pageName = useCurrentPageName();
  const routeId =
    handle && handle.routeId !== 'login' && handle.routeId !== 'register' && handle.routeId !== 'notFound'
      ? handle.routeId
      : undefined;
  const items: { key: string; title: React.ReactNode }[] = [];

  if (routeId === 'home') {
    items.push({ key: 'home', title: pageName ? <Link to={HOME_PATH}>{t('routes.home')}</Link> : t('routes.home') });
  } else {
    items.push({ key: 'home', title: <Link to={HOME_PATH}>{t('routes.home')}</Link> });
    const trail = menuTrail(menus, location.pathname, routeId);
    const childPage = routeId !== undefined && ROUTE_CATALOG[routeId].parent !== undefined;
    trail.forEach((menu, index) => {
      const last = index === trail.length - 1;
      const router = isLinkMenu(menu) ? parseRouter(menu.Router) : undefined;
      const label = menuLabel(menu, t);
      // The parent of a child page links back to it.
      items.push({ key: String(menu.Id), title: router && last && childPage ? <Link to={router.path}>{label}</Link> : label });
    });
    if (routeId && (trail.length === 0 || childPage)) items.push({ key: routeId, title: t(`routes.${routeId}`) });
  }
  if (pageName) items.push({ key: 'page', title: pageName });
  return (
    <nav aria-label={t('shell.breadcrumb')} style={{ minWidth: 0, overflow: 'hidden' }}>
      <Breadcrumb items={items} />
    </nav>
  );
}
