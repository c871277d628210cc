/** Query keys of the sites feature: one factory, so writes invalidate by prefix. */
import type { QueryParams } from '../../../lib/api-client';

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
  overview: ['sites', 'overview'] as const,
  deviceTypes: ['sites', 'device-types'] as const,
  areas: ['sites', 'areas'] as const,
  regions: ['sites', 'regions'] as const,
  map: ['sites', 'map'] as const,
};
