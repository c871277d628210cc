import { Navigate, useLocation } from 'react-router';
import { loginPath } from '../lib/api-client';
import { lazyComponent } from '../lib/lazy-page';
import { isSignedIn } from '../lib/session';

/** Everything behind sign-in; main.tsx preloads it when the page loads with a session. */
export const SignedInArea = lazyComponent(() => import('./signed-in-area').then((m) => m.SignedInArea));
const NotFoundPage = lazyComponent(() => import('../components/not-found-page').then((m) => m.NotFoundPage));

/**
 * Every route but login and not-found needs a session: without a token cookie the user goes to
 * /login?redirect=<asked path>; with one, the signed-in area loads and checks the session.
 */
export function RequireSession() {
  const location = useLocation();
  if (!isSignedIn()) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  return <SignedInArea />;
}

/**
 * A path the route table does not know: with a session it may be a run-time route of the
 * user's menu (the signed-in area decides); without one it is simply not found.
 */
export function SignedInOrNotFound() {
  if (!isSignedIn()) return <NotFoundPage />;
  return <SignedInArea />;
}
