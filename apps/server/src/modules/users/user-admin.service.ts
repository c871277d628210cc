/**
 * The rules of administering users: a group always keeps an active administrator; the platform
 * administrator (who may create tenants) is changed — password, status, profile, roles,
 * deletion — only by a platform administrator; a user is reached only in the caller's group.
 */
import type { UserListItem } from '@sluice/shared/user-admin.schema';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import { USER_SORTABLE, type UserAdminRepository } from './user-admin.repository.ts';

export class UserAdminService {
  readonly repository: UserAdminRepository;

  constructor(repository: UserAdminRepository) {
    this.repository = repository;
  }

  /** One page of the group's users with their roles. */
  async page(
    groupId: number,
    query: {
      PageNo: number;
      PageSize: number;
      Status?: number | undefined;
      Search?: string | undefined;
      OrderBy?: string | undefined;
      OrderType?: string | undefined;
    },
  ): Promise<{ items: UserListItem[]; count: number }> {
    const orderKey = Object.keys(USER_SORTABLE).find((k) => k.toLowerCase() === (query.OrderBy ?? 'Id').toLowerCase());
    if (!orderKey) throw new AppError(400, 'rule.sortable', { columns: Object.keys(USER_SORTABLE).join(', ') }, 'OrderBy');
    const { rows, count } = await this.repository.page(groupId, {
      status: query.Status,
      search: query.Search,
      orderColumn: USER_SORTABLE[orderKey] ?? 'id',
      direction: query.OrderType?.toLowerCase() === 'desc' ? 'desc' : 'asc',
      limit: query.PageSize,
      offset: (query.PageNo - 1) * query.PageSize,
    });
    const roles = await this.repository.rolesOfUsers(rows.map((r) => r.id));
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

  /** A user of the group, else 404. */
  async inGroup(id: number, groupId: number) {
    const row = await this.repository.inGroup(id, groupId);
    if (!row) throw new AppError(404, 'error.notFound');
    return row;
  }

  /** Refuses a change of the platform administrator by anyone but a platform administrator. */
  async guardPlatformAdmin(targetId: number, caller: CurrentUser): Promise<void> {
    if (caller.isPlatformAdmin) return;
    // Scoped by group: another group's user is the caller's next step's 404, not a hint here.
    if (await this.repository.isPlatformAdmin(targetId, caller.groupId)) throw new AppError(403, 'user.platformAdmin');
  }

  /** Refuses a change that would leave the group without an active administrator. */
  async keepAnAdmin(
    groupId: number,
    change: { losingUserId?: number; ignoreRoleId?: number },
    users = this.repository,
  ): Promise<void> {
    const admins = await users.activeAdmins(groupId, change.ignoreRoleId);
    if (admins.filter((id) => id !== change.losingUserId).length === 0) throw new AppError(409, 'user.lastAdmin');
  }

  /** Sets a user's roles; refused (leaving them as they were) when the group would lose its last administrator. */
  async setRoles(userId: number, groupId: number, roleIds: number[]): Promise<void> {
    await this.repository.transaction(async (users) => {
      await users.setRoles(userId, groupId, roleIds);
      // Checked inside the transaction, so a refused change leaves the roles as they were.
      await this.keepAnAdmin(groupId, {}, users);
    });
  }
}
