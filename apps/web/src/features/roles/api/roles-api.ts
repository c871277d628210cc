/**
 * Roles, permission modules and operates, and what a role holds: operates (RoleModuleOperate),
 * menus (RoleSysMenu) and projects ({module}/roleproject) — spec §6, §7 Roles and permissions.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MenuDto } from '@sluice/shared/menu.schema';
import type { RoleProjectDto } from '@sluice/shared/project.schema';
import type { ModuleDto, OperateDto, RoleDto } from '@sluice/shared/role.schema';
import { api, fetchAllPages } from '../../../lib/api-client';
import { defineResource, type ResourceContext } from '../../../components/resource-table/resource';

export const rolesResource = defineResource<RoleDto>({
  key: 'roles',
  operate: 'role.manage',
  list: 'GET /group/{g}/Role',
  create: 'POST /group/{g}/Role',
  update: 'PUT /group/{g}/Role',
  remove: 'DELETE /group/{g}/Role/:id',
});

export const modulesResource = defineResource<ModuleDto>({
  key: 'modules',
  operate: 'role.manage',
  list: 'GET /Module',
  paging: 'none',
  create: 'POST /Module',
  update: 'PUT /Module',
  remove: 'DELETE /Module/:id',
});

export const operatesResource = defineResource<OperateDto>({
  key: 'operates',
  operate: 'role.manage',
  list: 'GET /{g}/ModuleOperate',
  paging: 'none',
  create: 'POST /{g}/ModuleOperate',
  update: 'PUT /{g}/ModuleOperate',
  remove: 'DELETE /{g}/ModuleOperate/:id',
});

/** A project, station or client as the picker needs it (GET {g}/project rows). */
export interface ProjectNode {
  Id: number;
  Name: string;
  ProjectType: number;
  ParentId: number;
}

export const roleKeys = {
  all: rolesResource.keys.all,
  operates: (roleId: number) => [...rolesResource.keys.all, 'operates', roleId] as const,
  menus: (roleId: number) => [...rolesResource.keys.all, 'menus', roleId] as const,
  projects: (roleId: number) => [...rolesResource.keys.all, 'projects', roleId] as const,
  groupMenus: (groupId: number) => ['menus', 'all', groupId] as const,
  groupProjects: (groupId: number) => ['projects', 'all', groupId] as const,
};

export const allModulesQueryOptions = (ctx: ResourceContext) => ({
  ...modulesResource.listQueryOptions(ctx, {}),
  enabled: ctx.groupId > 0,
});
export const allOperatesQueryOptions = (ctx: ResourceContext) => ({
  ...operatesResource.listQueryOptions(ctx, {}),
  enabled: ctx.groupId > 0,
});

export const fetchRoleOperates = async (roleId: number) =>
  (await api.get<OperateDto[]>(`/RoleModuleOperate/${String(roleId)}`)).data;
export const roleOperatesQueryOptions = (roleId: number) =>
  queryOptions({ queryKey: roleKeys.operates(roleId), queryFn: () => fetchRoleOperates(roleId) });

export const fetchGroupMenus = async () => (await api.get<MenuDto[]>('/SysMenu/GetAllMenu')).data;
export const groupMenusQueryOptions = (ctx: ResourceContext) =>
  queryOptions({ queryKey: roleKeys.groupMenus(ctx.groupId), queryFn: fetchGroupMenus, enabled: ctx.groupId > 0 });

export const fetchRoleMenus = async (roleId: number) => (await api.get<number[]>('/RoleSysMenu/Get', { roleId })).data;
export const roleMenusQueryOptions = (roleId: number) =>
  queryOptions({ queryKey: roleKeys.menus(roleId), queryFn: () => fetchRoleMenus(roleId) });

export const groupProjectsQueryOptions = (ctx: ResourceContext) =>
  queryOptions({
    queryKey: roleKeys.groupProjects(ctx.groupId),
    queryFn: () => fetchAllPages<ProjectNode>(`/${String(ctx.groupId)}/project`),
    enabled: ctx.groupId > 0,
  });

export const fetchRoleProjects = async (ctx: ResourceContext, roleId: number) =>
  (await api.get<RoleProjectDto[]>(`/${String(ctx.groupId)}/roleproject/${String(roleId)}`)).data;
export const roleProjectsQueryOptions = (ctx: ResourceContext, roleId: number) =>
  queryOptions({ queryKey: roleKeys.projects(roleId), queryFn: () => fetchRoleProjects(ctx, roleId), enabled: ctx.groupId > 0 });

export function useRoleOperates(roleId: number) {
  return useQuery(roleOperatesQueryOptions(roleId));
}

export const linkOperate = (body: { RoleId: number; OperateId: number }) => api.post<null>('/RoleModuleOperate', body);
export const unlinkOperate = (body: { RoleId: number; OperateId: number }) =>
  api.delete<null>(`/RoleModuleOperate/${String(body.RoleId)}/${String(body.OperateId)}`);
export const saveRoleMenus = (body: { roleId: number; menuIds: number[] }) =>
  api.put<null>('/RoleSysMenu/AddOrUpdate', { roleId: body.roleId, menu: body.menuIds.join(',') });
export const saveRoleProjects = (
  ctx: ResourceContext,
  body: { RoleId: number; Projects: { ProjectId: number; Operate: number }[] },
) => api.post<null>(`/${String(ctx.groupId)}/roleproject`, body);

function useRoleMutation<Body>(call: (body: Body) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}

export const useSetRoleOperate = () =>
  useRoleMutation((body: { RoleId: number; OperateId: number; given: boolean }) =>
    body.given ? linkOperate(body) : unlinkOperate(body),
  );
export const useSaveRoleMenus = () => useRoleMutation(saveRoleMenus);
export const useSaveRoleProjects = (ctx: ResourceContext) =>
  useRoleMutation((body: { RoleId: number; Projects: { ProjectId: number; Operate: number }[] }) => saveRoleProjects(ctx, body));
