/**
 * A device's history for its chart (spec §7 {kind}/{deviceSn}/DeviceHisData): the chosen keys
 * between two times, at most MaxPoints points per key (min/max per bucket when there are more).
 */
import { queryOptions } from '@tanstack/react-query';
import type { HistoryDto } from '@sluice/shared/telemetry.schema';
import { api } from '../../../lib/api-client';

export type { HistoryDto };

export interface HistoryRequest {
  from: number;
  to: number;
  keys: readonly string[];
}

export const historyQueryOptions = (g: number, sn: string, request: HistoryRequest) =>
  queryOptions({
    queryKey: ['home', 'history', sn, request.from, request.to, request.keys.join(',')] as const,
    queryFn: async () =>
      (
        await api.get<HistoryDto>(`/${String(g)}/${encodeURIComponent(sn)}/DeviceHisData`, {
          BeginTime: request.from,
          EndTime: request.to,
          Keys: request.keys.join(','),
        })
      ).data,
    enabled: request.keys.length > 0,
    meta: { persist: false },
  });
