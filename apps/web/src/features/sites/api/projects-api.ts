/**
 * Projects and stations (spec §7 Projects): pages of cards, one node with its children, writes,
 * images, affiliates and principals; the group's device overview for the statistics panel.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AffiliateDto, PrincipalDto, ProjectDto, ProjectImageDto, ProjectInfoDto } from '@sluice/shared/project.schema';
import { api } from '../../../lib/api-client';
import { normalizeSearch, sitesKeys } from '../../../lib/sites';

export type { AffiliateDto, PrincipalDto, ProjectDto, ProjectImageDto, ProjectInfoDto };
export type SiteKind = 'project' | 'station';

export interface ProjectPage {
  data: ProjectDto[];
  count: number;
  totalPage: number;
  currentPage: number;
  pageSize: number;
}

export interface ProjectPageParams {
  PageNo: number;
  PageSize: number;
  Search?: string;
  ParentId?: number;
  Online?: number;
  ClientId?: number;
}

const pagePath = { project: 'myProject', station: 'mySite' } as const;

export const projectPageQueryOptions = (g: number, kind: SiteKind, params: ProjectPageParams) =>
  queryOptions({
    queryKey: sitesKeys.projectPage(kind, { g, ...params }),
    meta: { live: true },
    queryFn: async () =>
      (
        await api.get<ProjectPage>(`/${String(g)}/project/${pagePath[kind]}`, {
          ...params,
          Search: normalizeSearch(params.Search),
        })
      ).data,
    enabled: g > 0,
    placeholderData: keepPreviousData,
  });

export const projectInfoQueryOptions = (g: number, id: number) =>
  queryOptions({
    queryKey: sitesKeys.projectInfo(id),
    meta: { live: true },
    queryFn: async () => (await api.get<ProjectInfoDto>(`/${String(g)}/project/info/${String(id)}`)).data,
    enabled: g > 0 && id > 0,
  });

export interface DeviceOverview {
  Num: number;
  OnlineNum: number;
  OfflineNum: number;
  TypeData: { TypeId: number | null; Num: number; OnlineNum: number }[];
}

/** Whose numbers: the group's (both 0), a project's or station's, or a client's. */
export interface StatisticsScope {
  projectId: number;
  clientId: number;
}

/** The query of a statistics call for a scope: ProjectId or ClientId, or nothing for the group. */
export function scopeParams({ projectId, clientId }: StatisticsScope): Record<string, number> {
  if (projectId > 0) return { ProjectId: projectId };
  return clientId > 0 ? { ClientId: clientId } : {};
}

/**
 * GET {g}/Device/OverView: devices online and offline, in all and by type, of every site the user
 * reaches, of one project (its stations included) or station, or of a client's projects.
 */
export const overviewQueryOptions = (g: number, scope: StatisticsScope) =>
  queryOptions({
    queryKey: sitesKeys.overview(scope.projectId, scope.clientId),
    meta: { live: true },
    queryFn: async () => (await api.get<DeviceOverview>(`/${String(g)}/Device/OverView`, scopeParams(scope))).data,
    enabled: g > 0,
  });

export interface ProjectWrite {
  Id?: number;
  Name: string;
  ProjectType?: number;
  ParentId?: number | null;
  ClientId?: number | null;
  RegionId?: number | null;
  AreaId?: string | null;
  Address?: string;
  Position?: string;
}

export function useSaveProject(g: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectWrite) =>
      body.Id ? api.put<ProjectDto>(`/${String(g)}/project`, body) : api.post<ProjectDto>(`/${String(g)}/project`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

export function useDeleteProject(g: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/${String(g)}/project/${String(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

// ---- images ---------------------------------------------------------------------------

export const projectImagesQueryOptions = (g: number, id: number) =>
  queryOptions({
    queryKey: sitesKeys.projectImages(id),
    queryFn: async () => (await api.get<ProjectImageDto[]>(`/${String(g)}/${String(id)}/ProjectImage`)).data,
    enabled: g > 0 && id > 0,
  });

/** Uploads an image as multipart "file"; cover images go first (Sn 0). */
export function uploadProjectImage(g: number, id: number, file: Blob, fileName: string, cover: boolean) {
  const form = new FormData();
  form.append('file', file, fileName);
  return api.post<ProjectImageDto>(`/${String(g)}/${String(id)}/ProjectImage`, form, { params: cover ? { Sn: 0 } : {} });
}

export function useDeleteProjectImage(g: number, id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (imageId: number) => api.delete<null>(`/${String(g)}/${String(id)}/ProjectImage/${String(imageId)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.all }),
  });
}

// ---- affiliates and principals -----------------------------------------------------------

export const affiliatesQueryOptions = (id: number) =>
  queryOptions({
    queryKey: sitesKeys.affiliates(id),
    queryFn: async () => (await api.get<AffiliateDto[]>('/ProjectAffiliate', { ProjectId: id })).data,
    enabled: id > 0,
  });

export function useSaveAffiliate(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { Id?: number; AffiliateName: string; AffiliateValue: string }) =>
      body.Id
        ? api.put<AffiliateDto>('/ProjectAffiliate', body)
        : api.post<AffiliateDto>('/ProjectAffiliate', { ...body, ProjectId: projectId }),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.affiliates(projectId) }),
  });
}

export function useRemoveAffiliate(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<null>('/ProjectAffiliate/Remove', { Id: id }),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.affiliates(projectId) }),
  });
}

export const principalsQueryOptions = (kind: string, id: string | number) =>
  queryOptions({
    queryKey: sitesKeys.principals(kind, id),
    queryFn: async () => (await api.get<PrincipalDto[]>(`/${kind}/${String(id)}/ProjectPrincipals`)).data,
    enabled: String(id) !== '' && String(id) !== '0',
  });

export function useSavePrincipal(kind: string, id: string | number) {
  const client = useQueryClient();
  const base = `/${kind}/${String(id)}/ProjectPrincipals`;
  return useMutation({
    mutationFn: (body: { Id?: number; Name: string; Phone: string }) =>
      body.Id ? api.put<PrincipalDto>(`${base}/${String(body.Id)}`, body) : api.post<PrincipalDto>(base, body),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.principals(kind, id) }),
  });
}

export function useRemovePrincipal(kind: string, id: string | number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (principalId: number) => api.delete<null>(`/${kind}/${String(id)}/ProjectPrincipals/${String(principalId)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.principals(kind, id) }),
  });
}
