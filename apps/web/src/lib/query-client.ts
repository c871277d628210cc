/**
 * TanStack Query: one QueryClient for the console. Its GET cache is persisted to IndexedDB by
 * lib/query-persistence.ts (loaded with the signed-in shell, so the sign-in page stays small);
 * every successful write, sign-out and 401 clear it.
 */
import { QueryClient } from '@tanstack/react-query';
import { del } from 'idb-keyval';
import { isApiError } from './api-client';
import { readCookie } from './cookies';

/** Spec §9: the cache expires after one day. */
export const CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** The idb-keyval key holding the persisted cache. */
export const PERSISTED_CACHE_KEY = 'sluice.query-cache';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: CACHE_MAX_AGE_MS,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => {
        // Client errors (bad input, no permission, expired session) do not get better by retrying.
        if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
        return failureCount < 2;
      },
    },
    mutations: { retry: false },
  },
});

/** The account whose cache this is: the buster of the persisted cache. */
export function cacheBuster(): string {
  return readCookie('account') ?? '';
}

async function removePersisted(): Promise<void> {
  try {
    await del(PERSISTED_CACHE_KEY);
  } catch {
    // IndexedDB unavailable (private mode): nothing was persisted
  }
}

/** After a write: drop what is not on screen, refetch what is, and forget the persisted copy. */
export async function clearGetCache(): Promise<void> {
  queryClient.removeQueries({ type: 'inactive' });
  await Promise.all([queryClient.invalidateQueries(), removePersisted()]);
}

/** On sign-out or an expired session: forget everything. */
export async function clearAllCaches(): Promise<void> {
  await queryClient.cancelQueries();
  queryClient.clear();
  await removePersisted();
}
