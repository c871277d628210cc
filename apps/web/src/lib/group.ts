/** The caller's group: its id (the {g} of the sites and devices calls) and its record (GET group/{id}). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GroupDto } from '@sluice/shared/group.schema';
import { api } from './api-client';
import { myInfoQueryOptions } from './current-user';

export type { GroupDto };

export function useGroupId(): number {
  const { data } = useQuery(myInfoQueryOptions());
  return data?.GroupId ?? 0;
}

export function useIsAdmin(): boolean {
  const { data } = useQuery(myInfoQueryOptions());
  return data?.IsAdmin ?? false;
}

export const groupKeys = {
  all: ['groups'] as const,
  one: (id: number) => ['groups', 'one', id] as const,
  list: (params: Record<string, unknown>) => ['groups', 'list', params] as const,
};

export const groupQueryOptions = (id: number) =>
  queryOptions({
    queryKey: groupKeys.one(id),
    queryFn: async () => (await api.get<GroupDto>(`/group/${String(id)}`)).data,
    enabled: id > 0,
    staleTime: 5 * 60_000,
    // Fetched on each page load (not restored from the persisted cache): a setting the group's
    // administrator changed elsewhere (the watermark) applies at the next load.
    meta: { persist: false },
  });

/** The signed-in user's group record (name, logo, watermark). */
export function useOwnGroup() {
  return useQuery(groupQueryOptions(useGroupId()));
}
