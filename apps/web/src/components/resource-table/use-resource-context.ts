import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { myInfoQueryOptions } from '../../lib/current-user';
import type { ResourceContext } from './resource';

/** The signed-in user's group, for the {g} of resource paths. */
export function useResourceContext(): ResourceContext {
  const { data: user } = useQuery(myInfoQueryOptions());
  const groupId = user?.GroupId ?? 0;
  return useMemo(() => ({ groupId }), [groupId]);
}
