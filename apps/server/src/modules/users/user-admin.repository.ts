/** Administrators' SQL over a group's users: pages with their roles, a user's roles, the group's active administrators. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export const USER_SORTABLE: Record<string, 'id' | 'account' | 'user_name' | 'status' | 'created_at' | 'user_type'> = {
  Id: 'id',
  Account: 'account',
  UserName: 'user_name',
  Status: 'status',
  CreatedAt: 'created_at',
  UserType: 'user_type',
};

export interface UserPageQuery {
  status?: number | undefined;
  /** The search text, normalised; matched in account, name, email, phone and remark. */
  search?: string | undefined;
  orderColumn: (typeof USER_SORTABLE)[string];
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export class UserAdminRepository {
  private readonly db: Db;

  /** `db` may be a transaction. */
  constructor(db: Db) {
    this.db = db;
  }

  /** Runs work in one transaction, with this repository on it. */
  transaction<T>(work: (users: UserAdminRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new UserAdminRepository(trx)));
  }

  /** One page of the group's users and the total. */
  async page(groupId: number, query: UserPageQuery) {
    let q = this.db.selectFrom('users').where('group_id', '=', groupId);
    if (query.status !== undefined) q = q.where('status', '=', query.status);
    if (query.search) {
      const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) =>
        eb.or(
          ['account', 'user_name', 'email', 'phone', 'remark'].map((c) =>
            eb(sql<string>`lower(${sql.ref(c)})`, 'like', sql<string>`${pattern} escape '\\'`),
          ),
        ),
      );
    }
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
      .orderBy(query.orderColumn, query.direction)
      .orderBy('id', query.direction)
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { rows, count };
  }

  /** The roles of the users, in one query. */
  rolesOfUsers(userIds: number[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.is_admin'])
      .where('user_roles.user_id', 'in', userIds)
      .orderBy('roles.id')
      .execute();
  }

  /** A user of the group (id and status), or undefined. */
  inGroup(id: number, groupId: number) {
    return this.db
      .selectFrom('users')
      .select(['id', 'status'])
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
  }

  async isPlatformAdmin(id: number, groupId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('is_platform_admin')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.is_platform_admin === 1;
  }

  async setTypeAndRemark(id: number, groupId: number, userType: number, remark: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ user_type: userType, remark })
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .execute();
  }

  async remove(id: number, groupId: number): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).where('group_id', '=', groupId).execute();
  }

  /** A user's roles within the group. */
  rolesOf(userId: number, groupId: number) {
    return this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name', 'roles.is_admin', 'roles.module_id'])
      .where('user_roles.user_id', '=', userId)
      .where('roles.group_id', '=', groupId)
      .orderBy('roles.id')
      .execute();
  }

  async setRoles(userId: number, groupId: number, roleIds: number[]): Promise<void> {
    await this.db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    for (const roleId of new Set(roleIds)) {
      await this.db.insertInto('user_roles').values({ user_id: userId, role_id: roleId, group_id: groupId }).execute();
    }
  }

  /** Active users of the group that hold an admin role, optionally ignoring one role's admin flag. */
  async activeAdmins(groupId: number, ignoreRoleId?: number): Promise<number[]> {
    let query = this.db
      .selectFrom('users')
      .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select('users.id')
      .distinct()
      .where('users.group_id', '=', groupId)
      .where('users.status', '=', 1)
      .where('roles.is_admin', '=', 1);
    if (ignoreRoleId !== undefined) query = query.where('roles.id', '!=', ignoreRoleId);
    return (await query.execute()).map((r) => r.id);
  }
}
