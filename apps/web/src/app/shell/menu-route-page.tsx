import { useEffect } from 'react';
import { Result } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundResult } from '../../components/not-found-page';
import { menuForPath, menuLabel, routeIdForMenu } from '../../lib/menu-model';
import { useUserMenu } from '../../lib/user-menu';
import { pageElement } from '../route-pages';
import { appRoutes } from '../routes';
import { RoutePage } from './route-page';

function setDocumentTitle(text: string): void {
  document.title = text;
}

/** A link menu whose componentUrl names no page of this console: said plainly, never a crash. */
function UnknownComponentPage({ name, componentUrl }: { name: string; componentUrl: string }) {
  const { t } = useTranslation();
  return (
    <Result
      icon={<QuestionCircleOutlined aria-hidden />}
      status="info"
      title={<h1 style={{ fontSize: 'inherit', margin: 0, fontWeight: 'inherit' }}>{t('menuPage.unknownTitle', { name })}</h1>}
      subTitle={t('menuPage.unknownDescription', { component: componentUrl })}
    />
  );
}

/**
 * The run-time routes of spec §2: a path the route table does not have, matched against the
 * user's link menus. Their stored router names the page by componentUrl (the route table is
 * the registry); an unknown component gets a translated placeholder, an unknown path not-found.
 */
export function MenuRoutePage() {
  const { t } = useTranslation();
  const location = useLocation();
  const { data: menus = [] } = useUserMenu();
  const found = menuForPath(menus, location.pathname);
  const title = found ? menuLabel(found.menu, t) : t('routes.notFound');

  useEffect(() => {
    setDocumentTitle(t('app.documentTitle', { title }));
  }, [t, title]);

  if (!found) return <NotFoundResult />;
  const routeId = routeIdForMenu(found.router);
  const def = routeId ? appRoutes.find((route) => route.id === routeId) : undefined;
  if (!def) return <UnknownComponentPage name={title} componentUrl={found.router.componentUrl} />;
  return (
    <RoutePage def={def} viaMenu>
      {pageElement(def)}
    </RoutePage>
  );
}
