/**
 * Devices (spec §7 Devices): pages of cards, writes (the MQTT credential comes back once),
 * migration and its history.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceDto, MigrationDto } from '@sluice/shared/device.schema';
import { api } from '../../../lib/api-client';
import { normalizeSearch, sitesKeys } from '../../../lib/sites';

export type { DeviceDto, MigrationDto };

export interface DevicePageParams {
  PageNo: number;
  PageSize: number;
  Search?: string;
  ProjectId?: number;
  TypeId?: number;
  Online?: number;
}

export interface DevicePage {
  rows: DeviceDto[];
  count: number;
}

export const devicePageQueryOptions = (g: number, params: DevicePageParams) =>
  queryOptions({
    queryKey: sitesKeys.devices({ g, ...params }),
    meta: { live: true },
    queryFn: async (): Promise<DevicePage> => {
      const res = await api.get<DeviceDto[]>(`/${String(g)}/Device/MyDevice`, {
        ...params,
        Search: normalizeSearch(params.Search),
      });
      return { rows: res.data, count: res.count ?? res.data.length };
    },
    enabled: g > 0,
    placeholderData: keepPreviousData,
  });

/** One device by serial number (AllDevice with deviceSn). */
export const deviceQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: sitesKeys.device(sn),
    meta: { live: true },
    queryFn: async () => {
      const res = await api.get<DeviceDto[]>(`/${String(g)}/Device/AllDevice`, { deviceSn: sn });
      return res.data[0] ?? null;
    },
    enabled: g > 0 && sn !== '',
  });

/** Every device of a project (its stations included) or a station. */
export const projectDevicesQueryOptions = (g: number, projectId: number) =>
  queryOptions({
    queryKey: sitesKeys.devices({ g, all: projectId }),
    meta: { live: true },
    queryFn: async () => (await api.get<DeviceDto[]>(`/${String(g)}/Device/AllDevice`, { ProjectId: projectId })).data,
    enabled: g > 0 && projectId > 0,
  });

export interface DeviceWrite {
  DeviceSn?: string;
  DeviceName: string;
  DeviceNo?: string;
  DeviceDescription?: string;
  TypeId?: number | null;
  ProjectId?: number | null;
  RegionId?: number | null;
  AreaId?: string | null;
  Position?: string;
  Address?: string;
  /** the day put into use (YYYY-MM-DD), '' for none; edits only */
  UseTime?: string;
}

export interface CreatedDevice {
  Device: DeviceDto;
  Credential: { Username: string; Password: string };
}

export function useCreateDevice(g: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceWrite) => api.post<CreatedDevice>(`/${String(g)}/Device`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

export function useUpdateDevice(g: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceWrite) => api.put<DeviceDto>(`/${String(g)}/Device`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

/** PUT {g}/Device/Type: the device then starts again from the new type's standard template. */
export function useSetDeviceType(g: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { DeviceSn: string; TypeId: number | null }) => api.put<DeviceDto>(`/${String(g)}/Device/Type`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

export function useDeleteDevice(g: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sn: string) => api.delete<null>(`/${String(g)}/Device/${sn}`),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

/** PUT {g}/Device/Credential: a new MQTT secret for the device, shown only once; the old one stops working. */
export function useResetDeviceSecret(g: number) {
  return useMutation({
    mutationFn: (sn: string) => api.put<CreatedDevice['Credential']>(`/${String(g)}/Device/Credential`, { DeviceSn: sn }),
  });
}

export function useMigrateDevice(g: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { DeviceSn: string; ProjectId: number }) => api.put<DeviceDto>(`/${String(g)}/Device/Migration`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

export const migrationsQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: sitesKeys.migrations(sn),
    queryFn: async () =>
      (await api.get<{ DeviceSn: string; ListMigration: MigrationDto[] }>(`/${String(g)}/${sn}/DeviceMigration`)).data
        .ListMigration,
    enabled: g > 0 && sn !== '',
  });
