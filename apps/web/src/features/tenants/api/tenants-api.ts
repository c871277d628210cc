/**
 * Tenants (groups) for the platform administrator (spec §3 Group, §7 Group/FindByName,
 * Group/Add, group/logo): the paged list by name, a new group with its first administrator (the
 * generated password answered once), an edit (PUT Group/Update), a group's PNG logo, and deleting
 * a group (what it holds, then DELETE group/{id} with its code typed again).
 */
import { queryOptions } from '@tanstack/react-query';
import type { GroupContentsDto, GroupDto } from '@sluice/shared/group.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api } from '../../../lib/api-client';

/** What Group/Add answers: the new group and its administrator's password, shown once. */
export interface CreatedGroup {
  Id: number;
  Account: string;
  Password: string;
}

export function tenantsResource(onCreated: (created: CreatedGroup) => void) {
  return defineResource<GroupDto>({
    key: 'tenants',
    // The platform administrator holds every operate; the server checks that the caller is one.
    operate: 'system.manage',
    list: 'GET /Group/FindByName',
    create: async (_ctx, body) => {
      const res = await api.post<CreatedGroup>('/Group/Add', body);
      onCreated(res.data);
      return res;
    },
    update: 'PUT /Group/Update',
  });
}

export function uploadGroupLogo(groupId: number, file: Blob, fileName: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return api.put<{ Logo: string }>('/group/logo', form, { params: { GroupId: groupId } });
}

/** What deleting the group would delete: its users, devices, projects and stations, clients. */
export const groupContentsQueryOptions = (groupId: number) =>
  queryOptions({
    queryKey: ['tenants', 'contents', groupId],
    queryFn: async () => (await api.get<GroupContentsDto>(`/group/${String(groupId)}/contents`)).data,
    staleTime: 0,
  });

export function deleteGroup(groupId: number, code: string) {
  return api.delete<null>(`/group/${String(groupId)}`, { body: { Code: code } });
}
