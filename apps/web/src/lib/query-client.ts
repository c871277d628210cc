/**
 * TanStack Query: one QueryClient whose GET cache is persisted to IndexedDB (idb-keyval) for
 * one day. The persisted cache carries the signed-in account as its buster, so one user never
 * restores another's cache; signing out and every successful write clear it.
 */
import { QueryClient } from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { del, get, set } from 'idb-keyval';
import { isApiError } from './api-client';
import { readCookie } from './cookies';

export const CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const STORAGE_KEY = 'sluice.query-cache';

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

const idbStorage = {
  getItem: (key: string) => get<string>(key).then((value) => value ?? null),
  setItem: (key: string, value: string) => set(key, value),
  removeItem: (key: string) => del(key),
};

const basePersister = createAsyncStoragePersister({ storage: idbStorage, key: STORAGE_KEY, throttleTime: 1000 });

/** Stamps every save with the account signed in at that moment (not the one at start-up). */
export const persister: Persister = {
  persistClient: (client) => basePersister.persistClient({ ...client, buster: cacheBuster() }),
  restoreClient: () => basePersister.restoreClient(),
  removeClient: () => basePersister.removeClient(),
};

/**
 * Structural, because the persister packages (5.104) bundle their own query-core beside
 * react-query's (5.108); both Query classes have this shape.
 */
interface PersistableQuery {
  state: { status: string };
  meta?: Record<string, unknown>;
}

function shouldPersist(query: PersistableQuery): boolean {
  return query.state.status === 'success' && query.meta?.persist !== false;
}

export function persistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    maxAge: CACHE_MAX_AGE_MS,
    buster: cacheBuster(),
    dehydrateOptions: { shouldDehydrateQuery: shouldPersist },
  };
}

async function removePersisted(): Promise<void> {
  try {
    await persister.removeClient();
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
