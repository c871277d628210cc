import { Suspense, useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { useCurrentPageName } from '../lib/page-name';
import { currentHandle } from './route-handle';

/**
 * Sets document.title from the record the page shows ('Qingshan Station - Sluice'), else from
 * the route meta ('Home - Sluice'), and waits for lazy routes.
 */
export function RootLayout() {
  const { t } = useTranslation();
  const handle = currentHandle(useMatches());
  const pageName = useCurrentPageName();
  const title = pageName ?? (handle ? t(handle.meta.titleKey) : undefined);
  const pageSetsTitle = handle?.meta.titleFromPage === true;

  useEffect(() => {
    if (pageSetsTitle) return;
    document.title = title ? t('app.documentTitle', { title }) : t('app.name');
  }, [t, title, pageSetsTitle]);

  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Outlet />
    </Suspense>
  );
}
