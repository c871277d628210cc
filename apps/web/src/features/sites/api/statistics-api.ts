/** GET Device/GetRegionStatisticsDevice: a site's, a client's (or every reachable site's) figures today and this month. */
import { queryOptions } from '@tanstack/react-query';
import type { RegionStatisticsDto } from '@sluice/shared/statistics.schema';
import { api } from '../../../lib/api-client';
import { sitesKeys } from '../../../lib/sites';
import { scopeParams, type StatisticsScope } from './projects-api';

export const regionStatisticsQueryOptions = (scope: StatisticsScope) =>
  queryOptions({
    queryKey: [...sitesKeys.overview(scope.projectId, scope.clientId), 'statistics'],
    queryFn: async () => (await api.get<RegionStatisticsDto>('/Device/GetRegionStatisticsDevice', scopeParams(scope))).data,
    // Figures of the day move slowly: a minute is fresh enough for a panel.
    staleTime: 60_000,
  });
