/** Roles, permission modules, operates and their links (spec §6, §7 Roles and permissions). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addModuleRequest,
  addOperateRequest,
  addRoleRequest,
  moduleDto,
  operateDto,
  roleDto,
  roleOperateRequest,
  updateModuleRequest,
  updateOperateRequest,
  updateRoleRequest,
} from '@sluice/shared/role.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { idRef } from '@sluice/shared/schema-fields';
import { fromBody, fromParams } from '../audit/audit-trail.ts';
import { roleGrantsSubject } from './role.audit.ts';

const view = { operate: 'role.view' } as const;
const manage = { operate: 'role.manage' } as const;
const id = idRef;

export function rolesRoutes(root: FastifyInstance): void {
  const { roles } = root.ctx;

  registerResource(root, {
    table: 'roles',
    audit: { kind: 'role' },
    tags: ['Roles'],
    access: { read: view, write: manage },
    dto: roleDto,
    create: addRoleRequest,
    update: updateRoleRequest,
    computed: { Admin: (row) => (row.is_admin === 1 ? '是' : '否') },
    sortable: ['Name', 'IsAdmin'],
    searchable: ['Name'],
    unique: [{ key: 'Name', message: 'role.exists' }],
    routes: {
      list: 'GET /group/:groupId/Role',
      all: 'GET /group/:groupId/Role/AllRoles',
      get: 'GET /group/:groupId/Role/:id',
      create: 'POST /group/:groupId/Role',
      update: 'PUT /group/:groupId/Role',
      remove: 'DELETE /group/:groupId/Role/:id',
    },
    beforeWrite: async (row, user) => {
      if (typeof row.module_id === 'number' && !(await roles.allOwned('modules', [row.module_id], user.groupId))) {
        throw new AppError(400, 'ref.unknown', { what: 'ModuleId', id: row.module_id }, 'ModuleId');
      }
      return row;
    },
    beforeUpdate: async (id, row, user) => {
      if (row.is_admin === 0) await root.ctx.userAdmin.keepAnAdmin(user.groupId, { ignoreRoleId: id });
    },
    beforeRemove: async (_database, role) => {
      if (await roles.hasUsers(role.Id)) throw new AppError(409, 'role.inUse', { name: role.Name });
    },
  });

  registerResource(root, {
    table: 'modules',
    audit: { kind: 'module' },
    tags: ['Permissions'],
    access: { read: view, write: manage },
    dto: moduleDto,
    create: addModuleRequest,
    update: updateModuleRequest,
    sortable: ['ModuleName', 'Code'],
    searchable: ['ModuleName', 'Code'],
    unique: [{ key: 'Code', message: 'module.exists' }],
    routes: { all: 'GET /Module', create: 'POST /Module', update: 'PUT /Module', remove: 'DELETE /Module/:id' },
  });

  registerResource(root, {
    table: 'module_operates',
    audit: { kind: 'operate' },
    tags: ['Permissions'],
    access: { read: view, write: manage },
    dto: operateDto,
    create: addOperateRequest,
    update: updateOperateRequest,
    sortable: ['Name', 'Code', 'ModuleId'],
    searchable: ['Name', 'Code'],
    filters: { ModuleId: { key: 'ModuleId', schema: id } },
    unique: [{ key: 'Code', message: 'module.exists' }],
    routes: {
      all: 'GET /:g/ModuleOperate',
      create: 'POST /:g/ModuleOperate',
      update: 'PUT /:g/ModuleOperate',
      remove: 'DELETE /:g/ModuleOperate/:id',
    },
    beforeWrite: async (row, user) => {
      if (!(await roles.allOwned('modules', [Number(row.module_id)], user.groupId))) {
        throw new AppError(400, 'ref.unknown', { what: 'ModuleId', id: String(row.module_id) }, 'ModuleId');
      }
      return row;
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/RoleModuleOperate/:roleId',
    {
      config: { access: view },
      schema: {
        tags: ['Permissions'],
        summary: 'The operates a role holds',
        params: z.object({ roleId: id }),
        response: { 200: envelopeOf(z.array(operateDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!(await roles.allOwned('roles', [request.params.roleId], user.groupId))) throw new AppError(404, 'error.notFound');
      const rows = await roles.operates(request.params.roleId);
      return ok(
        request,
        rows.map((r) => ({ Id: r.id, ModuleId: r.module_id, Name: r.name, Code: r.code })),
      );
    },
  );

  app.post(
    '/RoleModuleOperate',
    {
      config: { access: manage, audit: { subject: roleGrantsSubject, action: 'update', id: fromBody('RoleId') } },
      schema: { tags: ['Permissions'], summary: 'Give a role an operate', body: roleOperateRequest },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { RoleId, OperateId } = request.body;
      if (!(await roles.allOwned('roles', [RoleId], user.groupId))) throw new AppError(404, 'error.notFound');
      if (!(await roles.allOwned('module_operates', [OperateId], user.groupId))) throw new AppError(404, 'error.notFound');
      await roles.grantOperate(RoleId, OperateId);
      return reply.status(201).send(ok(request, null, { message: 'saved' }));
    },
  );

  app.delete(
    '/RoleModuleOperate/:roleId/:operateId',
    {
      config: { access: manage, audit: { subject: roleGrantsSubject, action: 'update', id: fromParams('roleId') } },
      schema: { tags: ['Permissions'], summary: 'Take an operate from a role', params: z.object({ roleId: id, operateId: id }) },
    },
    async (request) => {
      const user = currentUser(request);
      if (!(await roles.allOwned('roles', [request.params.roleId], user.groupId))) throw new AppError(404, 'error.notFound');
      await roles.revokeOperate(request.params.roleId, request.params.operateId);
      return ok(request, null, { message: 'deleted' });
    },
  );
}
