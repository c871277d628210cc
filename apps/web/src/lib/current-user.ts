/** The current user as a query (GET /api/user/myinfo), for the signed-in pages. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchMyInfo, sessionKeys } from './session';

/**
 * Fetched once per page load (never restored from the persisted cache, so a revoked session is
 * noticed at start), then kept fresh by the invalidation that follows writes.
 */
export const myInfoQueryOptions = () =>
  queryOptions({
    queryKey: sessionKeys.myInfo,
    queryFn: fetchMyInfo,
    staleTime: Infinity,
    meta: { persist: false },
  });

export function useCurrentUser() {
  return useQuery(myInfoQueryOptions());
}
