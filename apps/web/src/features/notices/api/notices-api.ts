/**
 * Alarm records (spec §7 Alarms, logs, records): the notice centre's list, the bell's counts,
 * a device's active alarms, handling (one, or many with one comment), manual alarms and deletion.
 */
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { WarnDto, WarnInfoDto } from '@sluice/shared/alarm.schema';
import { api, fetchAllPages, type QueryParams } from '../../../lib/api-client';

export type { WarnDto, WarnInfoDto };

export const noticesKeys = {
  all: ['notices'] as const,
  list: (params: QueryParams) => ['notices', 'list', params] as const,
  info: () => ['notices', 'info'] as const,
  device: (sn: string) => ['notices', 'device', sn] as const,
};

export const noticesQueryOptions = (params: QueryParams) =>
  queryOptions({
    queryKey: noticesKeys.list(params),
    meta: { live: true },
    queryFn: async () => {
      const res = await api.get<WarnDto[]>('/Warn', params);
      return { rows: res.data, count: res.count ?? res.data.length };
    },
    placeholderData: keepPreviousData,
  });

/** What the bell shows. */
export const warnInfoQueryOptions = () =>
  queryOptions({
    queryKey: noticesKeys.info(),
    meta: { live: true },
    queryFn: async () => (await api.get<WarnInfoDto>('/Warn/GetWarnInfo')).data,
    staleTime: 30_000,
  });

/** A device's active alarms. */
export const deviceAlarmsQueryOptions = (sn: string) =>
  queryOptions({
    queryKey: noticesKeys.device(sn),
    meta: { live: true },
    queryFn: async () => (await api.get<WarnDto[]>(`/${encodeURIComponent(sn)}/Warn`, { Active: 1, PageSize: 100 })).data,
  });

export const handleAlarm = (sn: string, id: number, comments: string) =>
  api.put<WarnDto>(`/${encodeURIComponent(sn)}/Warn`, { Id: id, Comments: comments });

export const handleAlarms = (ids: number[], comments: string) =>
  api.put<{ Handled: number[] }>('/Warn', { Ids: ids, Comments: comments });

/** Turns an alarm into a repair of its device (issue 16); the repair keeps the alarm's id. */
export const repairFromAlarm = (warnId: number) => api.post<{ Id: number }>('/Repair/FromWarn', { WarnId: warnId });

export const deleteAlarms = (ids: number[]) => api.post<null>('/Warn/WarnDelete', { Ids: ids });

/** Every alarm the filters select (for an export), page by page. */
export const allAlarms = (params: QueryParams) => fetchAllPages<WarnDto>('/Warn', params);

/** After a change: lists, counts and devices' alarms fetch again. */
export function refreshAlarms(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: noticesKeys.all });
}
