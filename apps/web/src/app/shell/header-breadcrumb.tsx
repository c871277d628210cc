import { Breadcrumb } from 'antd';
import { Link, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../../lib/paths';
import { currentHandle } from '../route-handle';
import { menuTrail } from '../routes';

/** Home › menu group › page, from the route table. */
export function HeaderBreadcrumb() {
  const { t } = useTranslation();
  const handle = currentHandle(useMatches());
  const items: { key: string; title: React.ReactNode }[] = [];
  if (!handle || handle.routeId === 'home') {
    items.push({ key: 'home', title: t('routes.home') });
  } else {
    items.push({ key: 'home', title: <Link to={HOME_PATH}>{t('routes.home')}</Link> });
    const { group } = menuTrail(handle.routeId);
    if (group) items.push({ key: group.key, title: t(group.labelKey) });
    items.push({ key: handle.routeId, title: t(handle.meta.titleKey) });
  }
  return (
    <nav aria-label={t('shell.breadcrumb')} style={{ minWidth: 0, overflow: 'hidden' }}>
      <Breadcrumb items={items} />
    </nav>
  );
}
