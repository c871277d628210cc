/**
 * Devices (spec §7 Devices): pages of cards, overview, writes (the MQTT credential comes back
 * once), migration and its history, the recycle bin, and device types for names and icons.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceDto, MigrationDto } from '@sluice/shared/device.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api, isApiError } from '../../../lib/api-client';
import { normalizeSearch } from './projects-api';
import { sitesKeys } from './sites-keys';

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

export interface DeviceOverview {
  Num: number;
  OnlineNum: number;
  OfflineNum: number;
  TypeData: { TypeId: number | null; Num: number; OnlineNum: number }[];
}

export const overviewQueryOptions = (g: number) =>
  queryOptions({
    queryKey: sitesKeys.overview,
    meta: { live: true },
    queryFn: async () => (await api.get<DeviceOverview>(`/${String(g)}/Device/OverView`)).data,
    enabled: g > 0,
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

// ---- recycle bin -----------------------------------------------------------------------

export interface RecycledDevice extends DeviceDto {
  DeletedAt: number;
  DeletedBy: string;
  ProjectExists: boolean;
}

/** Deleted devices, newest first (paged, searchable); restoring and purging are row calls. */
export const recycleBinResource = defineResource<RecycledDevice>({
  key: 'device-recycle-bin',
  operate: 'device.manage',
  list: 'GET /Device/RecycleBin',
});

/** Back to its project, or unassigned when the project is gone (the message says which). */
export const restoreDevice = (sn: string) =>
  api.put<{ DeviceSn: string; ProjectRestored: boolean }>(`/Device/RecycleBin/Restore/${encodeURIComponent(sn)}`);

/** For good, with its configuration, card, images and history (administrators only). */
export const purgeDevice = (sn: string) => api.delete<null>(`/Device/RecycleBin/${encodeURIComponent(sn)}`);

// ---- device types --------------------------------------------------------------------

export interface DeviceTypeRef {
  Id: number;
  TypeName: string;
  ICON: string;
}

/** GET DeviceType/GetDeviceType; an empty list while that call does not exist on the server. */
export const deviceTypesQueryOptions = () =>
  queryOptions({
    queryKey: sitesKeys.deviceTypes,
    queryFn: async (): Promise<DeviceTypeRef[]> => {
      try {
        const res = await api.get<DeviceTypeRef[]>('/DeviceType/GetDeviceType');
        return Array.isArray(res.data) ? res.data.map((t) => ({ Id: t.Id, TypeName: t.TypeName, ICON: t.ICON })) : [];
      } catch (error) {
        if (isApiError(error) && (error.status === 404 || error.status === 403)) return [];
        throw error;
      }
    },
    staleTime: 10 * 60_000,
  });

export function useDeviceTypes() {
  return useQuery(deviceTypesQueryOptions());
}
