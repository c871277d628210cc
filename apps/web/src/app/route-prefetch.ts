/**
 * What a page shows first, fetched as soon as a page load enters it: in parallel with the
 * signed-in shell's start (restoring the persisted cache, the current user, the menu) rather
 * than after the page has rendered; the page's own queries then find the answers in the cache
 * or in flight. Small API modules only: this is part of the signed-in area's first chunk, so
 * the requests leave before the shell's and the page's code has even loaded.
 */
import { deviceMapQueryOptions } from '../features/sites/api/map-api';
import { clientConfigQueryOptions } from '../lib/client-config';
import { queryClient } from '../lib/query-client';
import type { AppRouteId } from './routes';

const prefetchers: Partial<Record<AppRouteId, () => Promise<unknown>>> = {
  // The home map: its 10,000-point answer and the tile configuration.
  home: () => Promise.all([queryClient.query(deviceMapQueryOptions()), queryClient.query(clientConfigQueryOptions())]),
};

export function prefetchRouteData(id: AppRouteId): Promise<unknown> {
  return prefetchers[id]?.() ?? Promise.resolve();
}
