/**
 * Persists the GET cache to IndexedDB (idb-keyval) for one day. The persisted cache carries
 * the signed-in account as its buster, so one user never restores another's cache.
 */
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { del, get, set } from 'idb-keyval';
import { CACHE_MAX_AGE_MS, cacheBuster, PERSISTED_CACHE_KEY } from './query-client';

const idbStorage = {
  getItem: (key: string) => get<string>(key).then((value) => value ?? null),
  setItem: (key: string, value: string) => set(key, value),
  removeItem: (key: string) => del(key),
};

const basePersister = createAsyncStoragePersister({ storage: idbStorage, key: PERSISTED_CACHE_KEY, throttleTime: 1000 });

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

/** Options for PersistQueryClientProvider, read when the signed-in shell mounts. */
export function persistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    maxAge: CACHE_MAX_AGE_MS,
    buster: cacheBuster(),
    dehydrateOptions: { shouldDehydrateQuery: shouldPersist },
  };
}
