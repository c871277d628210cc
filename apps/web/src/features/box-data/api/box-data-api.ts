/**
 * Box data (/sys/boxData): what each device's box (its gateway) reported, for every device the
 * user reaches: GET {g}/DeviceMonitorData — its newest values, or with Dt that day's last values
 * and each numeric key's minimum, maximum and average from the daily roll-ups.
 */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { monitorRowDto } from '@sluice/shared/telemetry.schema';
import { api } from '../../../lib/api-client';

export type BoxDataRow = z.infer<typeof monitorRowDto>;

export const boxDataQueryOptions = (g: number, params: { Dt?: string | undefined; ProjectId?: number | undefined }) =>
  queryOptions({
    queryKey: ['box-data', g, params.Dt ?? '', params.ProjectId ?? 0],
    queryFn: async () => {
      const query: Record<string, string | number> = {};
      if (params.Dt) query.Dt = params.Dt;
      if (params.ProjectId) query.ProjectId = params.ProjectId;
      return (await api.get<BoxDataRow[]>(`/${String(g)}/DeviceMonitorData`, query)).data;
    },
  });
