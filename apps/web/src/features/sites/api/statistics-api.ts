/** GET Device/GetRegionStatisticsDevice: a site's (or every reachable site's) figures today and this month. */
import { queryOptions } from '@tanstack/react-query';
import type { RegionStatisticsDto } from '@sluice/shared/statistics.schema';
import { api } from '../../../lib/api-client';
import { sitesKeys } from '../../../lib/sites';

export const regionStatisticsQueryOptions = (projectId = 0) =>
  queryOptions({
    queryKey: [...sitesKeys.overview(projectId), 'statistics'],
    queryFn: async () =>
      (await api.get<RegionStatisticsDto>('/Device/GetRegionStatisticsDevice', projectId > 0 ? { ProjectId: projectId } : {}))
        .data,
    // Figures of the day move slowly: a minute is fresh enough for a panel.
    staleTime: 60_000,
  });
