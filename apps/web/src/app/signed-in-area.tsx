import { useEffect, useState } from 'react';
import { Button } from 'antd';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { loginPath } from '../lib/api-client';
import { useCurrentUser } from '../lib/current-user';
import { useUserMenu } from '../lib/user-menu';
import { lazyComponent } from '../lib/lazy-page';
import { queryClient } from '../lib/query-client';
import { persistOptions } from '../lib/query-persistence';
import { ensureUserConfigApplied, leaveSession } from '../lib/session';
import { currentHandle } from './route-handle';
import { MenuRoutePage, RoutePage } from './route-frames';
import { pageOf } from './route-pages';
import { prefetchRouteData } from './route-prefetch';
import { appRoutes } from './routes';

const AppShell = lazyComponent(() => import('./shell/app-shell').then((m) => m.AppShell));

/** The menu could not be fetched (not a session problem: that goes to sign-in). */
function MenuFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="sluice-full-screen-center"
      style={{ flexDirection: 'column', gap: 16, padding: 24, textAlign: 'center' }}
    >
      <h1 style={{ fontSize: 22, fontWeight: 600, margin: 0 }}>{t('shell.menuFailed')}</h1>
      <p style={{ margin: 0 }}>{t('errors.pageFailedHint')}</p>
      <Button type="primary" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

/**
 * Fetches the current user (GET /api/user/myinfo) and their menu (GET /api/SysMenu/GetUserMenu)
 * before showing the app; when the session fails, sign-in.
 */
function SessionGate() {
  const location = useLocation();
  const navigate = useNavigate();
  const { data: user, isError } = useCurrentUser();
  // Spec §2: the menu (and so the run-time routes) is built before the app shows.
  const menu = useUserMenu();
  const returnTo = location.pathname + location.search;

  useEffect(() => {
    // Only a failed first load sends the user away; a failed background refresh keeps the page.
    if (isError && !user) void leaveSession(() => navigate(loginPath(returnTo), { replace: true }), { revoke: false });
  }, [isError, user, navigate, returnTo]);

  useEffect(() => {
    if (user) void ensureUserConfigApplied(user);
  }, [user]);

  if (!user) return <FullScreenSpinner />;
  if (!menu.data && menu.isError) return <MenuFailed onRetry={() => void menu.refetch()} />;
  if (!menu.data) return <FullScreenSpinner />;
  return <AppShell />;
}

/**
 * Once per page load: the code of the shell and of the entered page, and the page's first data,
 * start loading at once, in parallel with restoring the cache and checking the session instead
 * of after them. Loaded code renders without suspending, so React does not hold the page back
 * behind a spinner (its 300 ms fallback throttle). Failures are left to the page's own load.
 */
function usePreloadEnteredRoute() {
  const matches = useMatches();
  const [entered] = useState(() => currentHandle(matches)?.routeId);
  useEffect(() => {
    const ignore = () => undefined;
    AppShell.preload().catch(ignore);
    const def = appRoutes.find((route) => route.id === entered);
    if (!def) {
      MenuRoutePage.preload().catch(ignore);
      return;
    }
    RoutePage.preload().catch(ignore);
    pageOf(def).preload().catch(ignore);
    prefetchRouteData(def.id).catch(ignore);
  }, [entered]);
}

/**
 * Everything behind sign-in. The query cache lives here, restored from IndexedDB for the
 * signed-in account and saved as it changes; the sign-in page loads none of this code.
 */
export function SignedInArea() {
  const [options] = useState(persistOptions);
  usePreloadEnteredRoute();
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={options}>
      <SessionGate />
    </PersistQueryClientProvider>
  );
}
