/** A device's newest values: GET {g}/{sn}/DeviceHisData/Latest, fetched again after a live reconnect. */
import { queryOptions } from '@tanstack/react-query';
import type { LatestDto } from '@sluice/shared/telemetry.schema';
import { api } from '../../../lib/api-client';

export const latestDataQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: ['home', 'latest', sn],
    queryFn: async () => (await api.get<LatestDto>(`/${String(g)}/${encodeURIComponent(sn)}/DeviceHisData/Latest`)).data,
    meta: { live: true, persist: false },
  });
