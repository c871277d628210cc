/** Administrators' user calls (spec §7 Account and users): list, add, edit, status, delete, roles. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
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
  type UserListItem,
} from '@sluice/shared/user-admin.schema';
import { currentUser } from '../../auth/access.ts';
import { hashPassword } from '../../auth/password.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { guardPlatformAdmin, keepAnAdmin } from './admin-guard.ts';

const tags = ['Users'];
const view = { operate: 'user.view' } as const;
const manage = { operate: 'user.manage' } as const;
const SORTABLE: Record<string, 'id' | 'account' | 'user_name' | 'status' | 'created_at' | 'user_type'> = {
  Id: 'id',
  Account: 'account',
  UserName: 'user_name',
  Status: 'status',
  CreatedAt: 'created_at',
  UserType: 'user_type',
};

export function usersRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, users, sessions } = app.ctx;

  /** One query for the page, one for the roles of everyone on it. */
  async function listPage(groupId: number, query: z.infer<typeof pageQuery> & z.infer<typeof userListQuery>) {
    let q = db.selectFrom('users').where('group_id', '=', groupId);
    if (query.Status !== undefined) q = q.where('status', '=', query.Status);
    const search = normalizeSearch(query.Search);
    if (search) {
      const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) =>
        eb.or(
          ['account', 'user_name', 'email', 'phone', 'remark'].map((c) =>
            eb(sql<string>`lower(${sql.ref(c)})`, 'like', sql<string>`${pattern} escape '\\'`),
          ),
        ),
      );
    }
    const orderKey = Object.keys(SORTABLE).find((k) => k.toLowerCase() === (query.OrderBy ?? 'Id').toLowerCase());
    if (!orderKey) throw new AppError(400, 'rule.sortable', { columns: Object.keys(SORTABLE).join(', ') }, 'OrderBy');
    const direction = query.OrderType?.toLowerCase() === 'desc' ? 'desc' : 'asc';
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await q
      .select([
        'id',
        'account',
        'user_name',
        'email',
        'phone',
        'user_type',
        'remark',
        'status',
        'created_at',
        'is_platform_admin',
      ])
      .orderBy(SORTABLE[orderKey] ?? 'id', direction)
      .orderBy('id', direction)
      .limit(query.PageSize)
      .offset((query.PageNo - 1) * query.PageSize)
      .execute();
    const ids = rows.map((r) => r.id);
    const roles = ids.length
      ? await db
          .selectFrom('user_roles')
          .innerJoin('roles', 'roles.id', 'user_roles.role_id')
          .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.is_admin'])
          .where('user_roles.user_id', 'in', ids)
          .orderBy('roles.id')
          .execute()
      : [];
    const items: UserListItem[] = rows.map((r) => {
      const mine = roles.filter((role) => role.user_id === r.id);
      const status = r.status === 0 || r.status === 2 ? r.status : 1;
      return {
        Id: r.id,
        Account: r.account,
        UserName: r.user_name,
        Email: r.email,
        Phone: r.phone,
        UserType: r.user_type,
        Remark: r.remark,
        Status: status,
        Valide: status === 1,
        IsAdmin: r.is_platform_admin === 1 || mine.some((role) => role.is_admin === 1),
        RoleName: mine.map((role) => role.name).join(','),
        RoleIds: mine.map((role) => role.id),
        CreatedAt: r.created_at,
      };
    });
    return { items, count };
  }

  const userInGroup = async (id: number, groupId: number) => {
    const row = await db
      .selectFrom('users')
      .select(['id', 'status'])
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'error.notFound');
    return row;
  };

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
      const { items, count } = await listPage(user.groupId, request.query);
      return ok(request, items, { count });
    },
  );

  app.post(
    '/user/adduser',
    { config: { access: manage }, schema: { tags, summary: 'Add a user to the group', body: addUserRequest } },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      if (await users.accountTaken(body.Account)) throw new AppError(409, 'account.exists', { account: body.Account }, 'Account');
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
      return reply.status(201).send(ok(request, { Id: id }, { message: 'created' }));
    },
  );

  app.put(
    '/user/Update',
    { config: { access: manage }, schema: { tags, summary: "Edit another user's profile", body: editUserRequest } },
    async (request) => {
      const user = currentUser(request);
      const body = request.body;
      await userInGroup(body.Id, user.groupId);
      await guardPlatformAdmin(db, body.Id, user);
      await users.update(body.Id, user.groupId, { user_name: body.UserName, email: body.Email ?? '', phone: body.Phone ?? '' });
      await db
        .updateTable('users')
        .set({ user_type: body.UserType, remark: body.Remark ?? '' })
        .where('id', '=', body.Id)
        .where('group_id', '=', user.groupId)
        .execute();
      return ok(request, null, { message: 'saved' });
    },
  );

  app.put(
    '/user/status',
    {
      config: { access: manage },
      schema: { tags, summary: 'Enable or disable a user (signs a disabled user out)', body: userStatusRequest },
    },
    async (request) => {
      const user = currentUser(request);
      const { Id, Status } = request.body;
      if (Id === user.id) throw new AppError(409, 'user.notYourself');
      await userInGroup(Id, user.groupId);
      await guardPlatformAdmin(db, Id, user);
      if (Status !== 1) await keepAnAdmin(db, user.groupId, { losingUserId: Id });
      await users.update(Id, user.groupId, { status: Status });
      if (Status !== 1) await sessions.revokeAllOf(Id);
      return ok(request, null, { message: 'saved' });
    },
  );

  app.delete(
    '/user/:id',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Delete a user (never yourself, never the last administrator)',
        params: z.object({ id: z.coerce.number().int().positive() }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      if (id === user.id) throw new AppError(409, 'user.notYourself');
      await userInGroup(id, user.groupId);
      await guardPlatformAdmin(db, id, user);
      await keepAnAdmin(db, user.groupId, { losingUserId: id });
      await db.deleteFrom('users').where('id', '=', id).where('group_id', '=', user.groupId).execute();
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
        params: z.object({ userId: z.coerce.number().int().positive() }),
        response: { 200: envelopeOf(z.array(roleDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await userInGroup(request.params.userId, user.groupId);
      const rows = await db
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['roles.id', 'roles.name', 'roles.is_admin', 'roles.module_id'])
        .where('user_roles.user_id', '=', request.params.userId)
        .where('roles.group_id', '=', user.groupId)
        .orderBy('roles.id')
        .execute();
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
    { config: { access: manage }, schema: { tags, summary: "Set a user's roles (the full set)", body: saveUserRolesRequest } },
    async (request) => {
      const user = currentUser(request);
      const { UserId, RoleIds } = request.body;
      await userInGroup(UserId, user.groupId);
      await guardPlatformAdmin(db, UserId, user);
      if (!(await root.ctx.roles.allOwned('roles', RoleIds, user.groupId)))
        throw new AppError(400, 'ref.unknown', { what: 'RoleId', id: RoleIds.join(',') }, 'RoleIds');
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_roles').where('user_id', '=', UserId).execute();
        for (const roleId of new Set(RoleIds)) {
          await trx.insertInto('user_roles').values({ user_id: UserId, role_id: roleId, group_id: user.groupId }).execute();
        }
        // Checked inside the transaction, so a refused change leaves the roles as they were.
        await keepAnAdmin(trx, user.groupId, {});
      });
      return ok(request, null, { message: 'saved' });
    },
  );
}
