import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import { get } from 'idb-keyval';
import { writeCookie } from './cookies';
import { clearGetCache, PERSISTED_CACHE_KEY, queryClient } from './query-client';
import { persistOptions } from './query-persistence';

/**
 * The persister packages (5.104) type their QueryClient with their own copy of query-core, beside
 * react-query's (5.108); at run time the two are the same shape.
 */
type PersisterClient = Parameters<typeof persistQueryClientSave>[0]['queryClient'];
const asPersisterClient = (client: QueryClient) => client as unknown as PersisterClient;

function signedInAs(account: string) {
  writeCookie('account', account, 1);
}

async function saveFor(account: string, client: QueryClient) {
  signedInAs(account);
  await persistQueryClientSave({ ...persistOptions(), queryClient: asPersisterClient(client) });
}

async function restoreFor(account: string): Promise<QueryClient> {
  signedInAs(account);
  const client = new QueryClient();
  await persistQueryClientRestore({ ...persistOptions(), queryClient: asPersisterClient(client) });
  return client;
}

afterEach(() => {
  queryClient.clear();
});

describe('persisted GET cache', () => {
  it('is restored for the same account', async () => {
    const client = new QueryClient();
    client.setQueryData(['stations'], ['Xiaomei village']);
    await saveFor('alice', client);
    expect(await get(PERSISTED_CACHE_KEY)).toBeTruthy();
    const restored = await restoreFor('alice');
    expect(restored.getQueryData(['stations'])).toEqual(['Xiaomei village']);
  });

  it('is never restored for another account', async () => {
    const client = new QueryClient();
    client.setQueryData(['stations'], ['Xiaomei village']);
    await saveFor('alice', client);
    const restored = await restoreFor('bob');
    expect(restored.getQueryData(['stations'])).toBeUndefined();
  });

  it('leaves out the current user, which is always fetched fresh', async () => {
    const client = new QueryClient();
    client.setQueryData(['stations'], ['Xiaomei village']);
    await client.query({ queryKey: ['session', 'myinfo'], queryFn: () => ({ Account: 'alice' }), meta: { persist: false } });
    await saveFor('alice', client);
    const restored = await restoreFor('alice');
    expect(restored.getQueryData(['session', 'myinfo'])).toBeUndefined();
    expect(restored.getQueryData(['stations'])).toEqual(['Xiaomei village']);
  });

  it('is dropped after a write', async () => {
    queryClient.setQueryData(['stations'], ['Xiaomei village']);
    await saveFor('alice', queryClient);
    await clearGetCache();
    expect(await get(PERSISTED_CACHE_KEY)).toBeUndefined();
    expect(queryClient.getQueryData(['stations'])).toBeUndefined();
  });
});
