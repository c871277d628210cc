/** A group always keeps at least one active administrator; the platform administrator is changed only by its peers. */
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import type { CurrentUser } from '../../auth/current-user.ts';

/** Active users of the group that hold an admin role, optionally ignoring one role's admin flag. */
export async function activeAdmins(db: Db, groupId: number, ignoreRoleId?: number): Promise<number[]> {
  let query = db
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

/** Refuses a change that would leave the group without an active administrator. */
export async function keepAnAdmin(db: Db, groupId: number, change: { losingUserId?: number; ignoreRoleId?: number }) {
  const admins = await activeAdmins(db, groupId, change.ignoreRoleId);
  const remaining = admins.filter((id) => id !== change.losingUserId);
  if (remaining.length === 0) throw new AppError(409, 'user.lastAdmin');
}

/**
 * The platform administrator (who may create tenants) is changed — password, status, profile,
 * roles, deletion — only by a platform administrator, not by the other administrators of its group.
 */
export async function guardPlatformAdmin(db: Db, targetId: number, caller: CurrentUser): Promise<void> {
  if (caller.isPlatformAdmin) return;
  // Scoped by group: another group's user is the caller's next step's 404, not a hint here.
  const target = await db
    .selectFrom('users')
    .select('is_platform_admin')
    .where('id', '=', targetId)
    .where('group_id', '=', caller.groupId)
    .executeTakeFirst();
  if (target?.is_platform_admin === 1) throw new AppError(403, 'user.platformAdmin');
}
