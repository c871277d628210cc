/**
 * Administrators' user calls (spec §7 Account and users): the paged list (role names included,
 * so no request per row), add, edit, delete, status, password reset and each user's roles.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RoleDto } from '@sluice/shared/role.schema';
import type { UserListItem } from '@sluice/shared/user-admin.schema';
import { api, fetchAllPages } from '../../../lib/api-client';
import { defineResource, type ResourceContext } from '../../../components/resource-table/resource';

export const usersResource = defineResource<UserListItem>({
  key: 'users',
  operate: 'user.manage',
  list: 'GET /user',
  create: 'POST /user/adduser',
  update: 'PUT /user/Update',
  remove: 'DELETE /user/:id',
});

export const userKeys = {
  all: usersResource.keys.all,
  roles: (userId: number) => [...usersResource.keys.all, 'roles', userId] as const,
  /** The same key as the roles screen's list of all roles, so both share it. */
  assignableRoles: (groupId: number) => ['roles', 'all', groupId] as const,
};

export const fetchUserRoles = async (userId: number) => (await api.get<RoleDto[]>(`/UserRole/${String(userId)}`)).data;

export const userRolesQueryOptions = (userId: number) =>
  queryOptions({ queryKey: userKeys.roles(userId), queryFn: () => fetchUserRoles(userId) });

export function useUserRoles(userId: number) {
  return useQuery(userRolesQueryOptions(userId));
}

export const assignableRolesQueryOptions = (ctx: ResourceContext) =>
  queryOptions({
    queryKey: userKeys.assignableRoles(ctx.groupId),
    queryFn: () => fetchAllPages<RoleDto>(`/group/${String(ctx.groupId)}/Role/AllRoles`),
    enabled: ctx.groupId > 0,
  });

export function useAssignableRoles(ctx: ResourceContext) {
  return useQuery(assignableRolesQueryOptions(ctx));
}

export const setUserStatus = (body: { Id: number; Status: 0 | 1 | 2 }) => api.put<null>('/user/status', body);
export const resetUserPassword = (body: { Id: number; Password: string }) => api.put<null>('/user/password', body);
export const saveUserRoles = (body: { UserId: number; RoleIds: number[] }) => api.post<null>('/UserRole/SaveUserRole', body);

function useUserMutation<Body>(call: (body: Body) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export const useSetUserStatus = () => useUserMutation(setUserStatus);
export const useResetUserPassword = () => useUserMutation(resetUserPassword);
export const useSaveUserRoles = () => useUserMutation(saveUserRoles);
