import type { UIMatch } from 'react-router';
import type { RouteMeta, RouteTitle } from './routes';

/** What every route of the router carries in its `handle`. */
export interface RouteHandle {
  routeId: RouteTitle;
  meta: RouteMeta;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'meta' in handle && 'routeId' in handle;
}

/** The deepest matched route that carries a handle. */
export function currentHandle(matches: UIMatch[]): RouteHandle | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return undefined;
}
