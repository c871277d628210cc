import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { RouteError } from '../components/route-error';
import { lazyComponent } from '../lib/lazy-page';
import { isSignedIn } from '../lib/session';
import { HOME_PATH, NOT_FOUND_PATH, safeRedirect } from '../lib/paths';
import type { RouteHandle } from './route-handle';
import { RootLayout } from './root-layout';
import { MenuRoutePage, RoutePage } from './route-frames';
import { pageElement } from './route-pages';
import {
  appRoutes,
  catchAllRoute,
  loginRoute,
  registerRoute,
  NOT_FOUND_PARENTS,
  notFoundRoute,
  type AppRouteDef,
} from './routes';
import { RequireSession, SignedInOrNotFound } from './session-gate';

const LoginPage = lazyComponent(() => import('../features/auth/pages/login-page').then((m) => m.LoginPage));
const RegisterPage = lazyComponent(() => import('../features/auth/pages/register-page').then((m) => m.RegisterPage));
const NotFoundPage = lazyComponent(() => import('../components/not-found-page').then((m) => m.NotFoundPage));

/** /login and /register for visitors; someone already signed in goes on to where they were heading. */
function PublicOnly({ page = 'login' }: { page?: 'login' | 'register' }) {
  const location = useLocation();
  if (isSignedIn()) {
    const redirect = new URLSearchParams(location.search).get('redirect');
    return <Navigate to={safeRedirect(redirect)} replace />;
  }
  return page === 'register' ? <RegisterPage /> : <LoginPage />;
}

const notFoundHandle: RouteHandle = { routeId: 'notFound', meta: notFoundRoute.meta };
const catchAllHandle: RouteHandle = { routeId: 'notFound', meta: catchAllRoute.meta };

function protectedRoute(def: AppRouteDef): RouteObject {
  const handle: RouteHandle = { routeId: def.id, meta: def.meta };
  return { path: def.path, handle, element: <RoutePage def={def}>{pageElement(def)}</RoutePage> };
}

export const routeObjects: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      {
        path: loginRoute.path,
        handle: { routeId: 'login', meta: loginRoute.meta } satisfies RouteHandle,
        element: <PublicOnly />,
      },
      {
        path: registerRoute.path,
        handle: { routeId: 'register', meta: registerRoute.meta } satisfies RouteHandle,
        element: <PublicOnly page="register" />,
      },
      { path: '/common', element: <Navigate to={HOME_PATH} replace /> },
      ...NOT_FOUND_PARENTS.map((path) => ({ path, element: <Navigate to={NOT_FOUND_PATH} replace /> })),
      {
        element: <RequireSession />,
        errorElement: <RouteError />,
        children: appRoutes.map(protectedRoute),
      },
      ...notFoundRoute.paths.map((path) => ({ path, handle: notFoundHandle, element: <NotFoundPage /> })),
      {
        // Run-time routes of the user's menu (spec §2); without a session, the not-found page.
        element: <SignedInOrNotFound />,
        errorElement: <RouteError />,
        children: [{ path: catchAllRoute.path, handle: catchAllHandle, element: <MenuRoutePage /> }],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routeObjects);
}
