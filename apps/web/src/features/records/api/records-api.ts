/**
 * Field records (issue 16): water-quality results, repairs and their workflow, inspection
 * rounds, discharge standards and the standard a station holds, photos of any record.
 */
import { useQuery } from '@tanstack/react-query';
import type {
  DeviceInputDto,
  DischargeStandardDto,
  PollDto,
  PollDueDto,
  PollPlanDto,
  RecordKind,
  RecordPhotoDto,
  RepairAction,
  RepairDto,
  StationStandardDto,
} from '@sluice/shared/field-records.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api, type ApiResponse } from '../../../lib/api-client';
import { uploadWithProgress } from '../../../lib/api-transfer';

export type { DeviceInputDto, DischargeStandardDto, PollDto, PollDueDto, PollPlanDto, RepairDto, StationStandardDto };

/** Every water-quality result the user reaches (the list page; ProjectId narrows it to a station). */
export const qualityResource = defineResource<DeviceInputDto>({
  key: 'device-inputs',
  operate: 'records.enter',
  list: 'GET /{g}/DeviceInput',
  create: (ctx, body) => api.post(`/${String(ctx.groupId)}/${String(body.DeviceSn)}/DeviceInput`, withoutDevice(body)),
  update: (ctx, body, record) => api.put(`/${String(ctx.groupId)}/${String(record?.DeviceSn)}/DeviceInput`, withoutDevice(body)),
  remove: 'DELETE /{g}/{DeviceSn}/DeviceInput/:id',
});

/** One device's results (its Water quality tab). */
export const deviceQualityResource = defineResource<DeviceInputDto>({
  key: 'device-inputs',
  operate: 'records.enter',
  list: 'GET /{g}/{sn}/DeviceInput',
  paging: 'none',
  create: 'POST /{g}/{sn}/DeviceInput',
  update: 'PUT /{g}/{sn}/DeviceInput',
  remove: 'DELETE /{g}/{sn}/DeviceInput/:id',
});

function withoutDevice(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'DeviceSn'));
}

export const repairsResource = defineResource<RepairDto>({
  key: 'repairs',
  operate: 'records.enter',
  list: 'GET /GetRepairPageList',
  create: 'POST /RepairAdd',
  update: 'PUT /Repair',
  remove: 'DELETE /Repair/:id',
});

export const pollsResource = defineResource<PollDto>({
  key: 'polls',
  operate: 'records.enter',
  list: 'GET /GetPollPageList',
  create: 'POST /PollAdd',
  remove: 'DELETE /Poll/:id',
});

export const standardsResource = defineResource<DischargeStandardDto>({
  key: 'discharge-standards',
  operate: 'records.manage',
  list: 'GET /{g}/DischargeStandard',
  paging: 'none',
  create: 'POST /{g}/DischargeStandard',
  update: 'PUT /{g}/DischargeStandard',
  remove: 'DELETE /{g}/DischargeStandard/:id',
});

/** Moves a repair on (assign needs AssigneeId; finish and reject take a Note). */
export const repairAction = (id: number, body: { Action: RepairAction; AssigneeId?: number; Note?: string }) =>
  api.post<RepairDto>(`/Repair/${String(id)}/Action`, body);

export const stationStandardKey = (g: number, projectId: number) => ['station-standard', g, projectId] as const;

export function useStationStandard(g: number, projectId: number) {
  return useQuery({
    queryKey: stationStandardKey(g, projectId),
    queryFn: async () => (await api.get<StationStandardDto>(`/${String(g)}/StationStandard/${String(projectId)}`)).data,
    enabled: g > 0,
  });
}

export const setStationStandard = (g: number, projectId: number, Standard: string) =>
  api.put<StationStandardDto>(`/${String(g)}/StationStandard/${String(projectId)}`, { Standard });

/** The group's own standards (the station's picker). */
export function useStandards(g: number) {
  return useQuery({
    queryKey: [...standardsResource.keys.all, 'choices', g],
    queryFn: async () => (await api.get<DischargeStandardDto[]>(`/${String(g)}/DischargeStandard`)).data,
    enabled: g > 0,
  });
}

export function usePollPlan(g: number, projectId: number | undefined) {
  return useQuery({
    queryKey: ['poll-plan', g, projectId],
    queryFn: async () => (await api.get<PollPlanDto>(`/${String(g)}/PollPlan/${String(projectId)}`)).data,
    enabled: g > 0 && projectId !== undefined,
  });
}

export const setPollPlan = (g: number, projectId: number, body: { Items: string[]; IntervalDays: number }) =>
  api.put<PollPlanDto>(`/${String(g)}/PollPlan/${String(projectId)}`, body);

export function usePollsDue() {
  return useQuery({
    queryKey: [...pollsResource.keys.all, 'due'],
    queryFn: async () => (await api.get<PollDueDto[]>('/PollDue')).data,
  });
}

/** A station's or project's principals (the repair's assignee picker). */
export function usePrincipals(kind: string, projectId: number | undefined) {
  return useQuery({
    queryKey: ['principals', kind, projectId],
    queryFn: async () =>
      (await api.get<{ Id: number; Name: string; Phone: string }[]>(`/${kind}/${String(projectId)}/ProjectPrincipals`)).data,
    enabled: projectId !== undefined,
  });
}

export function uploadRecordPhoto(
  g: number,
  kind: RecordKind,
  id: number,
  file: File,
  stage: string,
  signal?: AbortSignal,
): Promise<ApiResponse<RecordPhotoDto>> {
  const form = new FormData();
  form.append('file', file);
  return uploadWithProgress<RecordPhotoDto>(`/${String(g)}/RecordPhoto/${kind}/${String(id)}`, form, {
    params: { Stage: stage },
    ...(signal ? { signal } : {}),
  });
}

export const removeRecordPhoto = (g: number, id: number) => api.delete<null>(`/${String(g)}/RecordPhoto/${String(id)}`);
