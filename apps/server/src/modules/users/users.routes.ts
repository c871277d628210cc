/** Administrators' user calls (spec §7 Account and users): list, add, edit, status, delete, roles. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import { normalizeSearch } from '@sluice/shared/rules';
import { roleDto, saveUserRolesRequest } from '@sluice/shared/role.schema';
import {
  addUserRequest,
  editUserRequest,
  userListItem,
  userListQuery,
  userStatusRequest,
} from '@sluice/shared/user-admin.schema';
import { currentUser } from '../../auth/access.ts';
import { hashPassword } from '../../auth/password.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { idRef } from '@sluice/shared/schema-fields';
import { fromBody, fromParams } from '../audit/audit-trail.ts';
import { userSubject } from './user.audit.ts';

const tags = ['Users'];
const view = { operate: 'user.view' } as const;
const manage = { operate: 'user.manage' } as const;
export function usersRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { users, sessions, userAdmin, roles } = app.ctx;

  app.get(
    '/user',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Users of the group (paged; Status 0 inactive, 1 normal, 2 disabled)',
        querystring: z.intersection(pageQuery, userListQuery),
        response: { 200: envelopeOf(z.array(userListItem)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { items, count } = await userAdmin.page(user.groupId, {
        ...request.query,
        Search: normalizeSearch(request.query.Search),
      });
      return ok(request, items, { count });
    },
  );

  app.post(
    '/user/adduser',
    {
      config: { access: manage, audit: { subject: userSubject } },
      schema: { tags, summary: 'Add a user to the group, with their roles (RoleIds) if given', body: addUserRequest },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      if (await users.accountTaken(body.Account)) throw new AppError(409, 'account.exists', { account: body.Account }, 'Account');
      const roleIds = body.RoleIds ?? [];
      if (roleIds.length > 0 && !(await roles.allOwned('roles', roleIds, user.groupId)))
        throw new AppError(400, 'ref.unknown', { what: 'RoleId', id: roleIds.join(',') }, 'RoleIds');
      const id = await users.insert({
        group_id: user.groupId,
        account: body.Account,
        user_name: body.UserName,
        email: body.Email ?? '',
        phone: body.Phone ?? '',
        user_type: body.UserType,
        remark: body.Remark ?? '',
        password_hash: await hashPassword(body.Password),
        status: 1,
      });
      if (roleIds.length > 0) await userAdmin.setRoles(id, user.groupId, roleIds);
      return reply.status(201).send(ok(request, { Id: id }, { message: 'created' }));
    },
  );

  app.put(
    '/user/Update',
    {
      config: { access: manage, audit: { subject: userSubject, id: fromBody('Id') } },
      schema: { tags, summary: "Edit another user's profile", body: editUserRequest },
    },
    async (request) => {
      const user = currentUser(request);
      const body = request.body;
      await userAdmin.inGroup(body.Id, user.groupId);
      await userAdmin.guardPlatformAdmin(body.Id, user);
      await users.update(body.Id, user.groupId, { user_name: body.UserName, email: body.Email ?? '', phone: body.Phone ?? '' });
      await userAdmin.repository.setTypeAndRemark(body.Id, user.groupId, body.UserType, body.Remark ?? '');
      return ok(request, null, { message: 'saved' });
    },
  );

  app.put(
    '/user/status',
    {
      config: { access: manage, audit: { subject: userSubject, id: fromBody('Id') } },
      schema: { tags, summary: 'Enable or disable a user (signs a disabled user out)', body: userStatusRequest },
    },
    async (request) => {
      const user = currentUser(request);
      const { Id, Status } = request.body;
      if (Id === user.id) throw new AppError(409, 'user.notYourself');
      await userAdmin.inGroup(Id, user.groupId);
      await userAdmin.guardPlatformAdmin(Id, user);
      if (Status !== 1) await userAdmin.keepAnAdmin(user.groupId, { losingUserId: Id });
      await users.update(Id, user.groupId, { status: Status });
      if (Status !== 1) await sessions.revokeAllOf(Id);
      return ok(request, null, { message: 'saved' });
    },
  );

  app.delete(
    '/user/:id',
    {
      config: { access: manage, audit: { subject: userSubject, id: fromParams('id') } },
      schema: {
        tags,
        summary: 'Delete a user (never yourself, never the last administrator)',
        params: z.object({ id: idRef }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      if (id === user.id) throw new AppError(409, 'user.notYourself');
      await userAdmin.inGroup(id, user.groupId);
      await userAdmin.guardPlatformAdmin(id, user);
      await userAdmin.keepAnAdmin(user.groupId, { losingUserId: id });
      await userAdmin.repository.remove(id, user.groupId);
      // Its sessions went with it (cascade); its live connections go now.
      sessions.ended({ userId: id });
      return ok(request, null, { message: 'deleted' });
    },
  );

  app.get(
    '/UserRole/:userId',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A user's roles",
        params: z.object({ userId: idRef }),
        response: { 200: envelopeOf(z.array(roleDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await userAdmin.inGroup(request.params.userId, user.groupId);
      const rows = await userAdmin.repository.rolesOf(request.params.userId, user.groupId);
      return ok(
        request,
        rows.map((r) => ({
          Id: r.id,
          Name: r.name,
          IsAdmin: r.is_admin === 1,
          Admin: r.is_admin === 1 ? ('是' as const) : ('否' as const),
          ModuleId: r.module_id,
        })),
      );
    },
  );

  app.post(
    '/UserRole/SaveUserRole',
    {
      config: { access: manage, audit: { subject: userSubject, action: 'update', id: fromBody('UserId') } },
      schema: { tags, summary: "Set a user's roles (the full set)", body: saveUserRolesRequest },
    },
    async (request) => {
      const user = currentUser(request);
      const { UserId, RoleIds } = request.body;
      await userAdmin.inGroup(UserId, user.groupId);
      await userAdmin.guardPlatformAdmin(UserId, user);
      if (!(await roles.allOwned('roles', RoleIds, user.groupId)))
        throw new AppError(400, 'ref.unknown', { what: 'RoleId', id: RoleIds.join(',') }, 'RoleIds');
      await userAdmin.setRoles(UserId, user.groupId, RoleIds);
      return ok(request, null, { message: 'saved' });
    },
  );
}
