/**
 * A device's history for its chart (spec §7 {kind}/{deviceSn}/DeviceHisData): the chosen keys
 * between two times, at most MaxPoints points per key (min/max per bucket when there are more),
 * asked for as columns (Layout=columns: flat arrays, half the bytes of rows to send and parse).
 */
import { queryOptions } from '@tanstack/react-query';
import type { HistoryColumnsDto } from '@sluice/shared/telemetry.schema';
import type { DeviceInputDto } from '@sluice/shared/field-records.schema';
import { BULK_PAGE_SIZE } from '@sluice/shared/paging.schema';
import { api } from '../../../lib/api-client';

export type { HistoryColumnsDto };

/**
 * The laboratory results of a station in a range ({g}/DeviceInput, newest first; at most a page of
 * BULK_PAGE_SIZE), drawn beside the online analyser's line of the same parameter.
 */
export const labResultsQueryOptions = (g: number, projectId: number | null, range: { from: number; to: number }) =>
  queryOptions({
    queryKey: ['home', 'lab-results', g, projectId, range.from, range.to] as const,
    queryFn: async () =>
      (
        await api.get<DeviceInputDto[]>(`/${String(g)}/DeviceInput`, {
          ProjectId: projectId ?? undefined,
          Begin: range.from,
          End: range.to,
          PageNo: 1,
          PageSize: BULK_PAGE_SIZE,
        })
      ).data,
    enabled: g > 0 && projectId !== null && range.to > range.from,
    meta: { persist: false },
  });

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
        await api.get<HistoryColumnsDto>(`/${String(g)}/${encodeURIComponent(sn)}/DeviceHisData`, {
          BeginTime: request.from,
          EndTime: request.to,
          Keys: request.keys.join(','),
          Layout: 'columns',
        })
      ).data,
    enabled: request.keys.length > 0,
    meta: { persist: false },
  });
