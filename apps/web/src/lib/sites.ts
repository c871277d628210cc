/**
 * What the sites, devices, regions, SIM and recycle-bin features share about the group's sites:
 * one query-key factory (so a write in one invalidates the others by prefix), the search text,
 * the tree of projects and stations a device is put in, and the device types' names and icons.
 */
import { useCallback } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProjectDto } from '@sluice/shared/project.schema';
import { fetchAllPages, api, isApiError, type QueryParams } from './api-client';
import { useStoredName } from './stored-names';

export const sitesKeys = {
  all: ['sites'] as const,
  projects: (params: QueryParams) => ['sites', 'projects', params] as const,
  projectPage: (kind: 'project' | 'station', params: QueryParams) => ['sites', 'project-page', kind, params] as const,
  projectInfo: (id: number) => ['sites', 'project-info', id] as const,
  projectImages: (id: number) => ['sites', 'project-images', id] as const,
  affiliates: (id: number) => ['sites', 'affiliates', id] as const,
  principals: (kind: string, id: string | number) => ['sites', 'principals', kind, String(id)] as const,
  devices: (params: QueryParams) => ['sites', 'devices', params] as const,
  device: (sn: string) => ['sites', 'device', sn] as const,
  deviceCard: (sn: string) => ['sites', 'device-card', sn] as const,
  migrations: (sn: string) => ['sites', 'migrations', sn] as const,
  deviceImages: (sn: string) => ['sites', 'device-images', sn] as const,
  /** The numbers of the group, of a project or station, or of a client (`clientId`). */
  overview: (projectId = 0, clientId = 0) => ['sites', 'overview', projectId, clientId] as const,
  deviceTypes: ['sites', 'device-types'] as const,
  areas: ['sites', 'areas'] as const,
  regions: ['sites', 'regions'] as const,
  map: ['sites', 'map'] as const,
};

/** Spec §5: full-width commas in a search become ASCII commas. */
export function normalizeSearch(text: string | undefined): string | undefined {
  const value = text?.replace(/，/g, ',').trim();
  return value ? value : undefined;
}

/** Every node of one type (or all) the caller reaches, page by page. */
export const allProjectsQueryOptions = (g: number, params: QueryParams = {}) =>
  queryOptions({
    queryKey: sitesKeys.projects({ g, ...params }),
    meta: { live: true },
    queryFn: () => fetchAllPages<ProjectDto>(`/${String(g)}/project`, params),
    enabled: g > 0,
    staleTime: 60_000,
  });

export function useAllProjects(g: number, params: QueryParams = {}) {
  return useQuery(allProjectsQueryOptions(g, params));
}

export interface DeviceTypeRef {
  Id: number;
  TypeName: string;
  ICON: string;
}

/** GET DeviceType/GetDeviceType for names and icons; an empty list while the caller may not read it. */
export const deviceTypeRefsQueryOptions = () =>
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

/** The group's device types for labels, named in the user's language (lib/stored-names.ts). */
export function useDeviceTypeRefs() {
  const name = useStoredName();
  const select = useCallback(
    (types: DeviceTypeRef[]) => types.map((type) => ({ ...type, TypeName: name(type.TypeName) })),
    [name],
  );
  return useQuery({ ...deviceTypeRefsQueryOptions(), select });
}
