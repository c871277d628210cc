import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { loginPath } from '../lib/api-client';
import { useCurrentUser } from '../lib/current-user';
import { lazyComponent } from '../lib/lazy-page';
import { queryClient } from '../lib/query-client';
import { persistOptions } from '../lib/query-persistence';
import { ensureUserConfigApplied, leaveSession } from '../lib/session';

const AppShell = lazyComponent(() => import('./shell/app-shell').then((m) => m.AppShell));

/** Fetches the current user (GET /api/user/myinfo) before showing the app; on failure, sign-in. */
function SessionGate() {
  const location = useLocation();
  const navigate = useNavigate();
  const { data: user, isError } = useCurrentUser();
  const returnTo = location.pathname + location.search;

  useEffect(() => {
    // Only a failed first load sends the user away; a failed background refresh keeps the page.
    if (isError && !user) void leaveSession(() => navigate(loginPath(returnTo), { replace: true }), { revoke: false });
  }, [isError, user, navigate, returnTo]);

  useEffect(() => {
    if (user) void ensureUserConfigApplied(user);
  }, [user]);

  if (!user) return <FullScreenSpinner />;
  return <AppShell />;
}

/**
 * Everything behind sign-in. The query cache lives here, restored from IndexedDB for the
 * signed-in account and saved as it changes; the sign-in page loads none of this code.
 */
export function SignedInArea() {
  const [options] = useState(persistOptions);
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={options}>
      <SessionGate />
    </PersistQueryClientProvider>
  );
}
