/**
 * Controlling a device (spec §2 device control, §7 Devices and Alarms): its control panel
 * (GET {g}/{sn}/DeviceControl), commands (POST {g}/{sn}/DeviceCommand), and its log
 * ({kind}/{sn}/DeviceLog: GET paged, POST a note, DELETE a row).
 */
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { DeviceControlDto } from '@sluice/shared/device-control.schema';
import type { DataValue } from '@sluice/shared/device-protocol';
import type { DeviceLogDto } from '@sluice/shared/telemetry.schema';
import { api, type QueryParams } from '../../../lib/api-client';

export type { DeviceControlDto, DeviceLogDto };

const sn$ = (sn: string) => encodeURIComponent(sn);

export const controlKeys = {
  panel: (sn: string) => ['home', 'control', sn] as const,
  logs: (sn: string) => ['home', 'device-log', sn] as const,
  logPage: (sn: string, params: QueryParams) => ['home', 'device-log', sn, params] as const,
};

export const deviceControlQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: controlKeys.panel(sn),
    queryFn: async () => (await api.get<DeviceControlDto>(`/${String(g)}/${sn$(sn)}/DeviceControl`)).data,
    // Online comes with it: fetched again after a reconnect and after state changes.
    meta: { live: true, persist: false },
  });

export const sendCommand = (g: number, sn: string, key: string, value: DataValue) =>
  api.post<DeviceLogDto>(`/${String(g)}/${sn$(sn)}/DeviceCommand`, { Key: key, Value: value });

export const deviceLogQueryOptions = (g: number, sn: string, params: QueryParams) =>
  queryOptions({
    queryKey: controlKeys.logPage(sn, params),
    queryFn: async () => {
      const res = await api.get<DeviceLogDto[]>(`/${String(g)}/${sn$(sn)}/DeviceLog`, params);
      return { rows: res.data, count: res.count ?? res.data.length };
    },
    placeholderData: keepPreviousData,
    meta: { persist: false },
  });

export const addLogNote = (g: number, sn: string, note: { Message: string; Key?: string }) =>
  api.post<DeviceLogDto>(`/${String(g)}/${sn$(sn)}/DeviceLog`, note);

export const deleteLog = (g: number, sn: string, id: number) =>
  api.delete<null>(`/${String(g)}/${sn$(sn)}/DeviceLog/${String(id)}`);

/** After a command, a note or a deletion: the device's log fetches again. */
export function refreshDeviceLog(client: QueryClient, sn: string): Promise<void> {
  return client.invalidateQueries({ queryKey: controlKeys.logs(sn) });
}
