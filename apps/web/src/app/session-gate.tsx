import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { loginPath } from '../lib/api-client';
import { lazyComponent } from '../lib/lazy-page';
import { ensureUserConfigApplied, leaveSession, myInfoQueryOptions, isSignedIn } from '../lib/session';

const AppShell = lazyComponent(() => import('./shell/app-shell').then((m) => m.AppShell));

function SessionGate() {
  const location = useLocation();
  const navigate = useNavigate();
  const { data: user, isError } = useQuery(myInfoQueryOptions());
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
 * Every route but login and not-found needs a session: without a token cookie the user goes to
 * /login?redirect=<asked path>; with one, the current user is fetched before the app shows.
 */
export function RequireSession() {
  const location = useLocation();
  if (!isSignedIn()) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  return <SessionGate />;
}
