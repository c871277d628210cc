/** The caller's group id, the {g} of the sites and devices calls. */
import { useQuery } from '@tanstack/react-query';
import { myInfoQueryOptions } from './current-user';

export function useGroupId(): number {
  const { data } = useQuery(myInfoQueryOptions());
  return data?.GroupId ?? 0;
}

export function useIsAdmin(): boolean {
  const { data } = useQuery(myInfoQueryOptions());
  return data?.IsAdmin ?? false;
}
